import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modemRefused } from '../../server/contract/domain/failureTexts.js';
import { apiBases } from '../../server/doors/http/app.js';
import { type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

interface View {
  id: string;
  state: string;
  recipients: { phoneNumber: string; state: string; error?: string }[];
  states: Record<string, string>;
  textMessage?: { text: string };
  dataMessage?: { data: string; port: number };
}

let harness: HttpHarness;
beforeEach(async () => {
  harness = await startHttpHarness();
});
afterEach(async () => {
  await harness.close();
});

async function enqueue(id: string, extra: Record<string, unknown> = {}) {
  const response = await harness.request('/messages', {
    method: 'POST',
    json: { id, textMessage: { text: `text of ${id}` }, phoneNumbers: ['+15551234567'], ...extra },
  });
  expect(response.status).toBe(202);
}

describe('GET /messages/{id}', () => {
  it.each(apiBases.flatMap((base) => [`${base}/messages`, `${base}/message`]))(
    'returns the state with content at %s/{id}',
    async (path) => {
      await enqueue('m1');
      const response = await harness.request(`${path}/m1`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id: 'm1',
        state: 'Pending',
        textMessage: { text: 'text of m1' },
      });
    },
  );

  it('answers 404 for an unknown id', async () => {
    const response = await harness.request('/messages/nope');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: expect.any(String), field: 'id' });
  });

  it('shows per-recipient states, errors and the time each aggregate state was reached', async () => {
    await enqueue('m2', { phoneNumbers: ['+15551230001', '+15551230002'] });
    await harness.clock.advance(1000);
    await harness.lifecycle.markProcessed('m2', 'modem-1');
    await harness.lifecycle.markRecipientSent('m2', '+15551230001', [7]);
    await harness.lifecycle.markRecipientFailed('m2', '+15551230002', modemRefused('CMS ERROR 500', 500));
    const body = (await harness.request('/messages/m2')).body as View;
    expect(body.state).toBe('Sent');
    expect(body.recipients).toEqual([
      { phoneNumber: '+15551230001', state: 'Sent' },
      {
        phoneNumber: '+15551230002',
        state: 'Failed',
        error: 'CMS ERROR 500',
        failure: { code: 'modem-refused', modemCode: 500 },
      },
    ]);
    expect(Object.keys(body.states)).toEqual(['Pending', 'Processed', 'Sent']);
    expect(Date.parse(body.states.Processed ?? '') - Date.parse(body.states.Pending ?? '')).toBe(1000);
  });
});

describe('GET /messages', () => {
  it.each(apiBases)('lists newest first with X-Total-Count at %s/messages', async (base) => {
    for (const id of ['a', 'b', 'c']) {
      await enqueue(id);
      await harness.clock.advance(1000);
    }
    const response = await harness.request(`${base}/messages?limit=2`);
    expect(response.status).toBe(200);
    expect(response.headers['x-total-count']).toBe('3');
    expect((response.body as View[]).map((view) => view.id)).toEqual(['c', 'b']);
  });

  it('lists each message as GET /messages/{id} shows it, in JSON, as it goes through its states', async () => {
    await enqueue('queued');
    await enqueue('bound', { deviceId: 'modem-1', phoneNumbers: ['+15551230001', '+15551230002'] });
    await enqueue('data', { textMessage: undefined, dataMessage: { data: 'AQID', port: 9200 } });
    await enqueue('quoted', { textMessage: { text: 'Say "hi" \\ 🎉 — ünïcode' } });
    await harness.clock.advance(1000);
    await harness.lifecycle.markProcessed('bound', 'modem-1');
    await harness.lifecycle.markRecipientSent('bound', '+15551230001', [7]);
    await harness.lifecycle.markRecipientFailed('bound', '+15551230002', modemRefused('CMS ERROR 500', 500));
    await harness.request('/messages/quoted', { method: 'DELETE' });
    const listed = await harness.request('/messages?includeContent=true');
    expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');
    const views = listed.body as View[];
    expect(views.map((view) => view.id)).toEqual(['quoted', 'data', 'bound', 'queued']);
    for (const view of views) expect(view).toEqual((await harness.request(`/messages/${view.id}`)).body);
  });

  it('leaves content out unless includeContent=true', async () => {
    await enqueue('t');
    await enqueue('d', { textMessage: undefined, dataMessage: { data: 'AQID', port: 9200 } });
    const plain = (await harness.request('/messages')).body as View[];
    expect(plain.every((view) => view.textMessage === undefined && view.dataMessage === undefined)).toBe(
      true,
    );
    const full = (await harness.request('/messages?includeContent=true')).body as View[];
    expect(full.find((view) => view.id === 't')?.textMessage).toEqual({ text: 'text of t' });
    expect(full.find((view) => view.id === 'd')?.dataMessage).toEqual({ data: 'AQID', port: 9200 });
  });

  it('filters by state, device and time range, and pages with offset', async () => {
    await enqueue('early');
    await harness.clock.advance(60_000);
    await enqueue('late', { deviceId: 'modem-1' });
    await enqueue('cancelled');
    await harness.request('/messages/cancelled', { method: 'DELETE' });
    const ids = async (query: string) =>
      ((await harness.request(`/messages?${query}`)).body as View[]).map((view) => view.id).sort();
    expect(await ids('state=Cancelled')).toEqual(['cancelled']);
    expect(await ids('state=Pending')).toEqual(['early', 'late']);
    expect(await ids('deviceId=modem-1')).toEqual(['late']);
    expect(
      await ids(`to=${encodeURIComponent(new Date(harness.clock.now() - 30_000).toISOString())}`),
    ).toEqual(['early']);
    expect(await ids('from=2026-01-01T12:00:30%2B00:00')).toEqual(['cancelled', 'late']);
    // The UI's search box: a substring of the text or a number, any case.
    expect(await ids('search=TEXT%20OF%20LA')).toEqual(['late']);
    expect(await ids('search=1234567')).toEqual(['cancelled', 'early', 'late']);
    expect(await ids('search=nowhere')).toEqual([]);
    const second = await harness.request('/messages?limit=1&offset=1');
    expect(second.headers['x-total-count']).toBe('3');
    expect((second.body as View[]).length).toBe(1);
  });

  /**
   * capcom6/android-sms-gateway@0cdc5d86c6f3cc24101f27feefd926e801e8b2c7
   * `app/src/main/java/me/capcom/smsgateway/domain/ProcessingState.kt` lists Cancelling, and
   * `modules/localserver/routes/MessagesRoutes.kt` takes any of its values as `state`.
   */
  it.each(apiBases.flatMap((base) => [`${base}/messages`, `${base}/message`]))(
    'accepts state=Cancelling as the app does, with an empty page, at %s',
    async (path) => {
      await enqueue('queued');
      await enqueue('cancelled');
      await harness.request('/messages/cancelled', { method: 'DELETE' });
      const response = await harness.request(`${path}?state=Cancelling`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
      expect(response.headers['x-total-count']).toBe('0');
    },
  );

  it.each([
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-1', 'offset'],
    ['state=Lost', 'state'],
    ['includeContent=1', 'includeContent'],
    ['from=yesterday', 'from'],
  ])('answers 400 naming the parameter for ?%s', async (query, field) => {
    const response = await harness.request(`/messages?${query}`);
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message.startsWith(`${field}: `)).toBe(true);
  });
});

describe('DELETE /messages/{id}', () => {
  it.each(apiBases.flatMap((base) => [`${base}/messages`, `${base}/message`]))(
    'cancels a pending message at %s/{id} and answers 200 with the Cancelled state',
    async (path) => {
      await enqueue('p');
      const response = await harness.request(`${path}/p`, { method: 'DELETE' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id: 'p',
        state: 'Cancelled',
        recipients: [{ state: 'Cancelled' }],
      });
      expect(harness.storage.messages.get('p')?.state).toBe('Cancelled');
    },
  );

  it('answers 200 again for a message already cancelled', async () => {
    await enqueue('twice');
    await harness.request('/messages/twice', { method: 'DELETE' });
    const again = await harness.request('/messages/twice', { method: 'DELETE' });
    expect(again.status).toBe(200);
    expect((again.body as View).state).toBe('Cancelled');
  });

  it('answers 400 naming the state for a message already handed to a modem', async () => {
    await enqueue('busy');
    await harness.lifecycle.markProcessed('busy', 'modem-1');
    const response = await harness.request('/messages/busy', { method: 'DELETE' });
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message).toContain('Processed');
    expect(harness.storage.messages.get('busy')?.state).toBe('Processed');
  });

  it('answers 404 for an unknown id', async () => {
    expect((await harness.request('/messages/ghost', { method: 'DELETE' })).status).toBe(404);
  });
});
