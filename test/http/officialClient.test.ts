import * as officialClient from 'android-sms-gateway';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IncomingMessageEvent } from '../../server/contract/domain/incoming.js';
import { basicPassword, basicUser, type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

/**
 * The official TypeScript client (`android-sms-gateway` on npm) against our server, at every
 * base it may be configured with: upstream clients must work unchanged (docs/decisions.md#mounts).
 */
let harness: HttpHarness;
beforeEach(async () => {
  harness = await startHttpHarness();
});
afterEach(async () => {
  await harness.close();
});

/**
 * The package ships ES module syntax without `"type": "module"`: TypeScript reads it as
 * CommonJS (the class at `default.default`) while Vitest loads it as ESM (the class at `default`).
 */
type ClientClass = typeof officialClient.default.default;
const loaded = officialClient.default as unknown as ClientClass | { default: ClientClass };
const Client: ClientClass = typeof loaded === 'function' ? loaded : loaded.default;

/** The client's transport seam, over fetch; a non-2xx answer rejects with status and body. */
const fetchClient: officialClient.HttpClient = {
  get: (url, headers) => call('GET', url, undefined, headers),
  post: (url, body, headers) => call('POST', url, body, headers),
  put: (url, body, headers) => call('PUT', url, body, headers),
  patch: (url, body, headers) => call('PATCH', url, body, headers),
  delete: (url, headers) => call('DELETE', url, undefined, headers),
};

async function call<T>(
  method: string,
  url: string,
  body: unknown,
  headers?: Record<string, string>,
): Promise<T> {
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

describe.each(['', '/3rdparty/v1', '/api/3rdparty/v1'])(
  'the official TypeScript client at base "%s"',
  (base) => {
    const client = () => new Client(basicUser, basicPassword, fetchClient, `${harness.baseUrl}${base}`);

    it('sends a message with the null fields the client fills in, and reads its state', async () => {
      const sent = await client().send({
        id: null,
        message: 'from the client',
        ttl: null,
        phoneNumbers: ['+15551234567'],
        simNumber: null,
        withDeliveryReport: null,
      });
      expect(sent.state).toBe('Pending');
      const state = await client().getState(sent.id);
      expect(state).toMatchObject({
        id: sent.id,
        state: 'Pending',
        recipients: [{ phoneNumber: '+15551234567' }],
      });
    });

    it('sends to a local number with skipPhoneValidation', async () => {
      const sent = await client().send(
        { phoneNumbers: ['0151 234'], message: 'x' },
        { skipPhoneValidation: true },
      );
      expect(harness.storage.messages.get(sent.id)?.recipients[0]?.phoneNumber).toBe('0151 234');
    });

    it('reads devices, health and logs', async () => {
      expect((await client().getDevices()).map((device) => device.id)).toEqual(['modem-1']);
      expect((await client().getHealth()).status).toBe('pass');
      harness.storage.logs.append({
        priority: 'INFO',
        module: 'test',
        message: 'seen',
        createdAt: harness.clock.now(),
      });
      const logs = await client().getLogs(
        new Date(harness.clock.now() - 1000),
        new Date(harness.clock.now() + 1000),
      );
      expect(logs.map((entry) => entry.message)).toEqual(['seen']);
    });

    it('changes settings with its camelCase keys', async () => {
      await client().patchSettings({ messages: { sendIntervalMin: 5, sendIntervalMax: 10 } });
      expect(harness.settings.current().messages).toMatchObject({
        send_interval_min: 5,
        send_interval_max: 10,
      });
      await client().updateSettings({ webhooks: { retryCount: 3, signingKey: 'key' } });
      expect(harness.settings.current().messages.send_interval_min).toBeNull();
      expect(harness.settings.current().webhooks).toMatchObject({ retry_count: 3, signing_key: 'key' });
      expect(await client().getSettings()).toMatchObject({ webhooks: { retry_count: 3 } });
    });

    it('registers, lists and deletes a webhook', async () => {
      const hook = await client().registerWebhook({
        id: 'hook-1',
        url: 'https://receiver.example/sms',
        event: officialClient.WebHookEventType.SmsReceived,
      });
      expect(hook).toMatchObject({ id: 'hook-1', url: 'https://receiver.example/sms' });
      expect((await client().getWebhooks()).map((webhook) => webhook.id)).toEqual(['hook-1']);
      await client().deleteWebhook('hook-1');
      expect(await client().getWebhooks()).toEqual([]);
    });

    it('exports the inbox through /inbox/export', async () => {
      await harness.storage.inbox.insert({
        id: 'in-1',
        type: 'SMS',
        deviceId: 'modem-1',
        simNumber: 1,
        sender: '+15557654321',
        content: 'hello',
        receivedAt: harness.clock.now() - 60_000,
      });
      const seen: IncomingMessageEvent[] = [];
      harness.events.on('inbox:replayed', (event) => seen.push(event));
      await client().exportInbox({
        deviceId: 'modem-1',
        since: new Date(harness.clock.now() - 3_600_000),
        until: new Date(harness.clock.now()),
      });
      expect(seen.map((event) => event.id)).toEqual(['in-1']);
    });

    it('removes a device', async () => {
      await client().deleteDevice('modem-1');
      expect(await client().getDevices()).toEqual([]);
    });
  },
);
