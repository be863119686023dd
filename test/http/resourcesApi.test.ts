import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IncomingMessageEvent, IncomingRecord } from '../../server/contract/domain/incoming.js';
import { apiBases } from '../../server/doors/http/app.js';
import { deviceInfo, type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

let harness: HttpHarness;
beforeEach(async () => {
  harness = await startHttpHarness();
});
afterEach(async () => {
  await harness.close();
});

const hour = 3_600_000;

function incoming(id: string, receivedAt: number, overrides: Partial<IncomingRecord> = {}): IncomingRecord {
  return {
    id,
    type: 'SMS',
    deviceId: 'modem-1',
    simNumber: 1,
    sender: '+15557654321',
    content: `body of ${id}`,
    receivedAt,
    ...overrides,
  };
}

function captureReplayed(): IncomingMessageEvent[] {
  const seen: IncomingMessageEvent[] = [];
  harness.events.on('inbox:replayed', (event) => seen.push(event));
  return seen;
}

describe('devices', () => {
  it.each(apiBases.flatMap((base) => [`${base}/devices`, `${base}/device`]))(
    'lists devices in the upstream shape with modem details at %s',
    async (path) => {
      const response = await harness.request(path);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        {
          id: 'modem-1',
          name: 'Modem modem-1',
          createdAt: expect.stringMatching(/^2026-01-01T\d\d:00:00\.000[+-]\d\d:\d\d$/),
          updatedAt: expect.any(String),
          lastSeen: expect.any(String),
          simCards: [{ slotIndex: 0, simNumber: 1, carrierName: 'Test Net' }],
          modem: expect.objectContaining({ port: '/dev/ttyUSB-modem-1', status: 'ready' }),
        },
      ]);
    },
  );

  it.each(apiBases)(
    'forgets a device with 204 and answers 404 the second time at %s/devices/{id}',
    async (base) => {
      harness.devices.add(deviceInfo('modem-2'));
      expect((await harness.request(`${base}/devices/modem-2`, { method: 'DELETE' })).status).toBe(204);
      expect(harness.devices.get('modem-2')).toBeUndefined();
      expect((await harness.request(`${base}/devices/modem-2`, { method: 'DELETE' })).status).toBe(404);
    },
  );
});

describe('inbox', () => {
  it.each(apiBases)('lists received messages newest first with X-Total-Count at %s/inbox', async (base) => {
    const start = harness.clock.now();
    await harness.storage.inbox.insert(incoming('in-1', start - 2 * hour));
    await harness.storage.inbox.insert(
      incoming('in-2', start - hour, { type: 'DATA_SMS', content: 'AQI=', port: 16 }),
    );
    const response = await harness.request(`${base}/inbox?limit=1`);
    expect(response.status).toBe(200);
    expect(response.headers['x-total-count']).toBe('2');
    expect(response.body).toEqual([
      {
        id: 'in-2',
        type: 'DATA_SMS',
        deviceId: 'modem-1',
        sender: '+15557654321',
        simNumber: 1,
        contentPreview: 'AQI=',
        port: 16,
        createdAt: expect.any(String),
        attachments: [],
      },
    ]);
  });

  it('filters the inbox by type, device, period and search text', async () => {
    const start = harness.clock.now();
    await harness.storage.inbox.insert(incoming('sms-old', start - 3 * hour));
    await harness.storage.inbox.insert(incoming('sms-new', start - hour));
    await harness.storage.inbox.insert(incoming('data', start - hour, { type: 'DATA_SMS', content: 'AA==' }));
    await harness.storage.inbox.insert(incoming('other-modem', start - hour, { deviceId: 'modem-9' }));
    const ids = async (query: string) =>
      ((await harness.request(`/inbox?${query}`)).body as { id: string }[]).map((item) => item.id).sort();
    expect(await ids('type=DATA_SMS')).toEqual(['data']);
    expect(await ids('deviceId=modem-9')).toEqual(['other-modem']);
    expect(await ids('search=BODY%20OF%20SMS-N')).toEqual(['sms-new']);
    expect(await ids('search=7654321&type=SMS')).toEqual(['other-modem', 'sms-new', 'sms-old']);
    expect(
      await ids(`from=${encodeURIComponent(new Date(start - 2 * hour).toISOString())}&type=SMS`),
    ).toEqual(['other-modem', 'sms-new']);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['type=FAX', 'type'],
    ['offset=-2', 'offset'],
    ['to=noon', 'to'],
    ['includeAttachments=yes', 'includeAttachments'],
    ['includeAttachments=1', 'includeAttachments'],
  ])('answers 400 naming the parameter for /inbox?%s', async (query, field) => {
    const response = await harness.request(`/inbox?${query}`);
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message.startsWith(`${field}: `)).toBe(true);
  });

  it.each(apiBases)(
    'starts a refresh with 202 and re-reads the named modem at %s/inbox/refresh',
    async (base) => {
      const response = await harness.request(`${base}/inbox/refresh`, {
        method: 'POST',
        json: { deviceId: 'modem-1', triggerWebhooks: false },
      });
      expect(response.status).toBe(202);
      expect(response.text).toBe('');
      expect(harness.devices.inboxRefreshes).toEqual(['modem-1']);
    },
  );

  it('replays the period as received-message events after a refresh with triggerWebhooks', async () => {
    const start = harness.clock.now();
    await harness.storage.inbox.insert(incoming('recent', start - hour));
    await harness.storage.inbox.insert(incoming('ancient', start - 48 * hour));
    const seen = captureReplayed();
    const response = await harness.request('/inbox/refresh', {
      method: 'POST',
      json: { triggerWebhooks: true },
    });
    expect(response.status).toBe(202);
    await harness.clock.advance(0);
    // The period is read on the page reader's thread: the events follow a moment later.
    await vi.waitFor(() => expect(seen.map((event) => event.id)).toEqual(['recent']));
  });

  /**
   * The app lists an MMS's attachment parts only with `includeAttachments=true` and refuses any
   * value but true or false (capcom6/android-sms-gateway@0cdc5d86c6f3cc24101f27feefd926e801e8b2c7
   * `app/src/main/java/me/capcom/smsgateway/modules/localserver/routes/InboxRoutes.kt`).
   */
  it.each(['true', 'false'])('takes includeAttachments=%s; an SMS has no parts either way', async (value) => {
    await harness.storage.inbox.insert(incoming('plain-sms', harness.clock.now() - hour));
    const response = await harness.request(`/inbox?includeAttachments=${value}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([expect.objectContaining({ id: 'plain-sms', attachments: [] })]);
  });

  /** The app serves MMS parts at /inbox/{id}/attachments/{partId} and answers 404 for unknown ids. */
  it('answers 404 for an attachment of an unknown message and of an SMS, which has none', async () => {
    await harness.storage.inbox.insert(incoming('plain-sms', harness.clock.now() - hour));
    const unknown = await harness.request('/inbox/nope/attachments/1');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: expect.stringContaining('nope'), field: 'id' });
    const noPart = await harness.request('/inbox/plain-sms/attachments/1');
    expect(noPart.status).toBe(404);
    expect(noPart.body).toEqual({ message: expect.stringContaining('attachment 1'), field: 'partId' });
    expect((await harness.request('/inbox/plain-sms/attachments/1', { authorization: null })).status).toBe(
      401,
    );
  });

  it('answers 400 for a refresh of an unknown device', async () => {
    const response = await harness.request('/inbox/refresh', { method: 'POST', json: { deviceId: 'ghost' } });
    expect(response.status).toBe(400);
    expect(harness.devices.inboxRefreshes).toEqual([]);
  });

  /**
   * The app mounts its message routes, inbox export included, at `/message` and `/messages`
   * (capcom6/android-sms-gateway@0cdc5d86c6f3cc24101f27feefd926e801e8b2c7
   * `app/src/main/java/me/capcom/smsgateway/modules/localserver/WebService.kt`,
   * `modules/localserver/routes/MessagesRoutes.kt` inboxRoutes); `/inbox/export` is the npm client's.
   */
  const exportPaths = apiBases.flatMap((base) =>
    ['/messages/inbox/export', '/message/inbox/export', '/inbox/export'].map((path) => `${base}${path}`),
  );
  it.each(exportPaths)('exports the period as one received-message event per SMS at %s', async (path) => {
    const start = harness.clock.now();
    await harness.storage.inbox.insert(incoming('inside', start - 2 * hour));
    await harness.storage.inbox.insert(incoming('outside', start - 10 * hour));
    const seen = captureReplayed();
    const response = await harness.request(path, {
      method: 'POST',
      json: {
        since: new Date(start - 3 * hour).toISOString(),
        until: new Date(start).toISOString(),
        deviceId: 'modem-1',
      },
    });
    expect(response.status).toBe(202);
    expect(seen).toEqual([
      expect.objectContaining({
        id: 'inside',
        type: 'SMS',
        content: 'body of inside',
        sender: '+15557654321',
      }),
    ]);
  });

  it('asks messages:export at /message/inbox/export, as at /messages/inbox/export', async () => {
    const json = { since: '2026-01-01T00:00:00Z', until: '2026-01-02T00:00:00Z' };
    for (const path of ['/messages/inbox/export', '/message/inbox/export']) {
      const allowed = await harness.request(path, {
        method: 'POST',
        json,
        authorization: await harness.bearer(['messages:export']),
      });
      expect(allowed.status).toBe(202);
      const refused = await harness.request(path, {
        method: 'POST',
        json,
        authorization: await harness.bearer(['inbox:list', 'inbox:refresh']),
      });
      expect(refused.status).toBe(403);
    }
  });

  it('answers 400 naming since when the export period is missing', async () => {
    const response = await harness.request('/inbox/export', {
      method: 'POST',
      json: { until: '2026-01-01T00:00:00Z' },
    });
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message.startsWith('since: ')).toBe(true);
  });
});

describe('logs', () => {
  it.each(apiBases)('returns log entries between from and to, oldest first, at %s/logs', async (base) => {
    const start = harness.clock.now();
    harness.storage.logs.append({
      priority: 'INFO',
      module: 'modem',
      message: 'too early',
      createdAt: start - 2 * hour,
    });
    harness.storage.logs.append({
      priority: 'WARN',
      module: 'modem',
      message: 'signal weak',
      context: { dbm: -109 },
      createdAt: start - hour,
    });
    harness.storage.logs.append({
      priority: 'ERROR',
      module: 'at',
      message: 'timeout',
      createdAt: start - 1000,
    });
    const from = encodeURIComponent(new Date(start - 90 * 60_000).toISOString());
    const response = await harness.request(`${base}/logs?from=${from}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: expect.any(Number),
        priority: 'WARN',
        module: 'modem',
        message: 'signal weak',
        context: { dbm: '-109' },
        createdAt: expect.any(String),
      },
      expect.objectContaining({ priority: 'ERROR', message: 'timeout' }),
    ]);
  });

  it('answers 400 naming to when it is not a date', async () => {
    const response = await harness.request('/logs?to=later');
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message.startsWith('to: ')).toBe(true);
  });
});
