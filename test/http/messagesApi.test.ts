import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiBases } from '../../server/doors/http/app.js';
import { type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

interface MessageBody {
  id: string;
  state: string;
  deviceId?: string;
  isHashed: boolean;
  isEncrypted: boolean;
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

const text = (extra: Record<string, unknown> = {}) => ({
  textMessage: { text: 'Hello from the gateway' },
  phoneNumbers: ['+15551234567'],
  ...extra,
});

async function post(body: unknown, path = '/messages') {
  return harness.request(path, { method: 'POST', json: body });
}

describe('POST /messages', () => {
  it.each(apiBases.flatMap((base) => [`${base}/messages`, `${base}/message`]))(
    'queues a message at %s and answers 202 with Location pointing back at the same mount',
    async (path) => {
      const response = await post(text(), path);
      expect(response.status).toBe(202);
      const body = response.body as MessageBody;
      expect(body.state).toBe('Pending');
      expect(body.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
      expect(response.headers.location).toBe(`${path}/${body.id}`);
      expect(harness.storage.messages.get(body.id)?.state).toBe('Pending');
    },
  );

  it('answers with the upstream message state record, content included and nulls omitted', async () => {
    const response = await post(text({ id: 'client-id-1', deviceId: 'modem-1', priority: 100 }));
    expect(response.body).toEqual({
      id: 'client-id-1',
      deviceId: 'modem-1',
      state: 'Pending',
      isHashed: false,
      isEncrypted: false,
      recipients: [{ phoneNumber: '+15551234567', state: 'Pending' }],
      states: { Pending: expect.stringMatching(/^2026-01-01T\d{2}:\d{2}:00\.000([+-]\d{2}:\d{2})$/) },
      createdAt: expect.stringMatching(/^2026-01-01T\d{2}:\d{2}:00\.000([+-]\d{2}:\d{2})$/),
      textMessage: { text: 'Hello from the gateway' },
      priority: 100,
      withDeliveryReport: true,
    });
    expect(response.text).not.toContain('null');
    // The moment it was accepted, as client-go reads MessageState.CreatedAt (RFC 3339).
    expect(Date.parse((response.body as { createdAt: string }).createdAt)).toBe(harness.clock.now());
  });

  it('stores every accepted field of the spec and scheduleAt', async () => {
    const response = await post({
      id: 'full',
      dataMessage: { data: 'AQID', port: 2948 },
      phoneNumbers: ['+4915112345678', '+4915112345679'],
      simNumber: 1,
      ttl: 3600,
      withDeliveryReport: false,
      priority: -5,
      scheduleAt: '2026-01-01T15:00:00+01:00',
    });
    expect(response.status).toBe(202);
    const stored = harness.storage.messages.get('full');
    expect(stored).toMatchObject({
      content: { kind: 'data', data: 'AQID', port: 2948 },
      recipients: [
        { phoneNumber: '+4915112345678', state: 'Pending' },
        { phoneNumber: '+4915112345679', state: 'Pending' },
      ],
      simNumber: 1,
      withDeliveryReport: false,
      priority: -5,
      validUntil: harness.clock.now() + 3_600_000,
      scheduleAt: Date.UTC(2026, 0, 1, 14),
      createdAt: harness.clock.now(),
    });
  });

  it('refuses a SIM slot that no modem has, naming simNumber, and stores nothing', async () => {
    const before = harness.storage.messages.count();
    for (const body of [
      { textMessage: { text: 'x' }, phoneNumbers: ['+15551234567'], simNumber: 2 },
      { textMessage: { text: 'x' }, phoneNumbers: ['+15551234567'], simNumber: 3, deviceId: 'modem-1' },
    ]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect((response.body as { message: string }).message).toMatch(/^simNumber: /);
    }
    expect(harness.storage.messages.count()).toBe(before);
  });

  it('accepts the deprecated message field as text', async () => {
    const response = await post({ message: 'old style', phoneNumbers: ['+15551234567'] });
    expect(response.status).toBe(202);
    expect((response.body as MessageBody).textMessage).toEqual({ text: 'old style' });
  });

  it('gives later messages a higher sequence and wakes the scheduler once per message', async () => {
    await post(text({ id: 'first' }));
    await post(text({ id: 'second' }));
    const first = harness.storage.messages.get('first');
    const second = harness.storage.messages.get('second');
    expect(second?.sequence).toBeGreaterThan(first?.sequence ?? Number.POSITIVE_INFINITY);
    expect(harness.wakeups()).toBe(2);
  });

  it('answers 409 for a duplicate id and keeps the first message', async () => {
    await post(text({ id: 'dup' }));
    const response = await post({ ...text({ id: 'dup' }), textMessage: { text: 'other' } });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ message: expect.stringMatching(/^id: /), field: 'id' });
    expect(harness.storage.messages.get('dup')?.content).toEqual({
      kind: 'text',
      text: 'Hello from the gateway',
    });
  });

  it('answers 400 when the named device is unknown, and stores nothing', async () => {
    const response = await post(text({ deviceId: 'no-such-modem' }));
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message).toMatch(/^deviceId: /);
    expect(harness.storage.messages.count()).toBe(0);
  });

  it('answers 503 when no device was active within deviceActiveWithin hours', async () => {
    await harness.clock.advance(5 * 3_600_000);
    const stale = await post(text(), '/messages?deviceActiveWithin=2');
    expect(stale.status).toBe(503);
    const wide = await post(text(), '/messages?deviceActiveWithin=6');
    expect(wide.status).toBe(202);
    expect(harness.storage.messages.count()).toBe(1);
  });

  it('answers 503 when the queue holds its maximum of pending messages, and stores nothing more', async () => {
    await harness.close();
    harness = await startHttpHarness({ maxPendingMessages: 2 });
    expect((await post(text({ id: 'a' }))).status).toBe(202);
    expect((await post(text({ id: 'b' }))).status).toBe(202);
    const full = await post(text({ id: 'c' }));
    expect(full.status).toBe(503);
    expect(harness.storage.messages.get('c')).toBeUndefined();
  });

  it('accepts a phone number that is not E.164 only with skipPhoneValidation=true or isEncrypted', async () => {
    const local = text({ phoneNumbers: ['0151 1234567'] });
    expect((await post(local)).status).toBe(400);
    expect((await post(local, '/messages?skipPhoneValidation=true')).status).toBe(202);
    expect((await post({ ...local, isEncrypted: true })).status).toBe(202);
  });
});
