import { WebHookEventType } from 'android-sms-gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../support/webhookReceiver.js';
import {
  deviceSchema,
  expectShape,
  healthResponseSchema,
  logEntrySchema,
  messageStateSchema,
  settingsSchema,
  webhookSchema,
} from './support/clientTypeSchemas.js';
import {
  type GatewayUnderTest,
  mounts,
  password,
  startGatewayUnderTest,
  user,
} from './support/gatewayUnderTest.js';
import {
  fetchHttpClient,
  HttpStatusError,
  type OfficialClient,
  officialClient,
  type RecordingHttpClient,
} from './support/officialClient.js';

/**
 * The official TypeScript client, unchanged, against the whole gateway at each base a customer
 * may configure (docs/decisions.md#mounts). Version 3.0.0 offers: send, getState, getWebhooks,
 * registerWebhook, deleteWebhook, getDevices, deleteDevice, getHealth, exportInbox, getLogs,
 * getSettings, updateSettings, patchSettings — every one is called here. It has no message
 * list, cancel, token or inbox-list call, and no Bearer mode: it always sends Basic
 * credentials built from its first two arguments.
 */
describe.each(mounts)('the official client configured with base "%s"', (base) => {
  let gateway: GatewayUnderTest;
  let http: RecordingHttpClient;
  let client: OfficialClient;
  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
    http = fetchHttpClient();
    client = officialClient(user, password, http, `${gateway.url}${base}`);
  });
  afterAll(async () => {
    await gateway.stop();
  });

  const lastUrl = () => new URL(http.calls.at(-1)?.url ?? '');

  it('sends a message through its singular /message path and gets its state back', async () => {
    const state = expectShape(
      messageStateSchema,
      await client.send({ id: `client-send${base}`, phoneNumbers: ['+15551234567'], message: 'hello' }),
      'send()',
    );
    expect(lastUrl().pathname).toBe(`${base}/message`);
    // As GET /messages/{id} shows it: Processed when a free modem took it in the same commit.
    const { state: reached, recipients } = state;
    expect(['Pending', 'Processed']).toContain(reached);
    expect(state).toMatchObject({ id: `client-send${base}`, recipients: [{ phoneNumber: '+15551234567' }] });
    expect(recipients.map((recipient) => recipient.state)).toEqual([reached]);
  });

  it('sends to a local number when asked to skip phone validation', async () => {
    const state = await client.send(
      { phoneNumbers: ['0151 234 567'], message: 'local' },
      { skipPhoneValidation: true },
    );
    expect(lastUrl().searchParams.get('skipPhoneValidation')).toBe('true');
    expect(expectShape(messageStateSchema, state, 'send()').recipients[0]?.phoneNumber).toBe('0151 234 567');
  });

  it('sends a message whose optional fields are the nulls its Message type allows', async () => {
    const state = await client.send({
      id: null,
      phoneNumbers: ['+15551234567'],
      message: 'nulls',
      ttl: null,
      simNumber: null,
      withDeliveryReport: null,
    });
    expect(expectShape(messageStateSchema, state, 'send()').id).not.toBe('');
  });

  it('follows a message from Pending to Delivered with getState', async () => {
    const { id } = await client.send({ phoneNumbers: ['+15557654321'], message: 'track me' });
    // Queued, or already handed to the modem a send's answer freed: either is where it starts.
    expect(['Pending', 'Processed']).toContain((await client.getState(id)).state);
    expect(lastUrl().pathname).toBe(`${base}/message/${id}`);
    await gateway.runUntil(async () => (await client.getState(id)).state === 'Delivered', 'delivery');
    const state = expectShape(messageStateSchema, await client.getState(id), 'getState()');
    expect(state.recipients).toEqual([{ phoneNumber: '+15557654321', state: 'Delivered' }]);
  });

  it('rejects getState for an unknown id with 404', async () => {
    const failure = await client.getState('no-such-message').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpStatusError);
    expect((failure as HttpStatusError).status).toBe(404);
  });

  it('registers, lists and deletes a webhook', async () => {
    const registered = expectShape(
      webhookSchema,
      await client.registerWebhook({
        id: 'client-hook',
        url: 'https://receiver.example/sms',
        event: WebHookEventType.SmsReceived,
      }),
      'registerWebhook()',
    );
    expect(registered).toEqual({
      id: 'client-hook',
      url: 'https://receiver.example/sms',
      event: 'sms:received',
    });
    const listed = await client.getWebhooks();
    expect(listed.map((hook) => expectShape(webhookSchema, hook, 'getWebhooks()[]'))).toEqual([registered]);
    await expect(client.deleteWebhook('client-hook')).resolves.toBeUndefined();
    expect(await client.getWebhooks()).toEqual([]);
  });

  it('registers a webhook without an id and gets a generated one', async () => {
    const registered = await client.registerWebhook({
      id: null,
      url: 'http://127.0.0.1:9/hook',
      event: WebHookEventType.SmsSent,
      deviceId: null,
    });
    expect(expectShape(webhookSchema, registered, 'registerWebhook()').id).not.toBe('');
    await client.deleteWebhook(registered.id ?? '');
  });

  it('lists the simulated modem as a device', async () => {
    const devices = await client.getDevices();
    expect(devices).toHaveLength(1);
    const device = expectShape(deviceSchema, devices[0], 'getDevices()[0]');
    expect(device.name).not.toBe('');
  });

  it('reads health in the declared shape', async () => {
    const health = expectShape(healthResponseSchema, await client.getHealth(), 'getHealth()');
    // Earlier tests of this file leave failed messages behind, which is a warning, not a failure.
    expect(['pass', 'warn']).toContain(health.status);
    expect(health.checks['modems:connected']?.status).toBe('pass');
    expect(Number.isInteger(health.releaseId)).toBe(true);
  });

  it('reads the log entries of a time range', async () => {
    const from = new Date(gateway.clock.now() - 60_000);
    const to = new Date(gateway.clock.now() + 60_000);
    const logs = await client.getLogs(from, to);
    expect(lastUrl().searchParams.get('from')).toBe(from.toISOString());
    expect(logs.length).toBeGreaterThan(0);
    for (const [index, entry] of logs.entries()) {
      const checked = expectShape(logEntrySchema, entry, `getLogs()[${index}]`);
      expect(Date.parse(checked.createdAt)).toBeGreaterThanOrEqual(from.getTime());
      expect(Date.parse(checked.createdAt)).toBeLessThanOrEqual(to.getTime());
    }
  });

  it('reads settings and changes them with its camelCase keys, partially and in full', async () => {
    expectShape(settingsSchema, await client.getSettings(), 'getSettings()');
    await client.patchSettings({ messages: { sendIntervalMin: 5, sendIntervalMax: 10 } });
    expect(await client.getSettings()).toMatchObject({
      messages: { send_interval_min: 5, send_interval_max: 10 },
    });
    await client.updateSettings({ webhooks: { retryCount: 3, signingKey: 'compat-key' } });
    const replaced = expectShape(settingsSchema, await client.getSettings(), 'getSettings()');
    expect(replaced.webhooks.retry_count).toBe(3);
    // PUT replaces everything: the interval set by the PATCH above is back to its default.
    expect(replaced.messages.send_interval_min).toBeUndefined();
    // The signing key is write-only (spec: Settings).
    expect(JSON.stringify(replaced)).not.toContain('compat-key');
  });

  it('asks for an inbox export, which sends an sms:received webhook per SMS of the period', async () => {
    const received = await gateway.receiveSms('+15550001111', `export me via ${base || 'root'}`);
    // Registered after the SMS arrived: only the export can send this receiver anything.
    const receiver = await startReceiver();
    try {
      await client.registerWebhook({
        id: 'export-hook',
        url: receiver.url,
        event: WebHookEventType.SmsReceived,
      });
      await expect(
        client.exportInbox({
          deviceId: received.deviceId,
          since: new Date(received.receivedAt - 60_000),
          until: new Date(received.receivedAt + 60_000),
        }),
        // Declared `Promise<void>`, it hands back the parsed body: the empty object client-php needs.
      ).resolves.toEqual({});
      expect(lastUrl().pathname).toBe(`${base}/inbox/export`);
      await gateway.runUntil(() => receiver.requests.length > 0, 'the export webhook');
      expect(JSON.parse(receiver.requests[0]?.body ?? '{}')).toMatchObject({
        event: 'sms:received',
        webhookId: 'export-hook',
        payload: { messageId: received.id, phoneNumber: '+15550001111', message: received.content },
      });
    } finally {
      await client.deleteWebhook('export-hook');
      await receiver.close();
    }
  });

  it('is refused with 401 when its password is wrong', async () => {
    const wrong = officialClient(user, 'not the password', fetchHttpClient(), `${gateway.url}${base}`);
    const failure = await wrong.getDevices().catch((error: unknown) => error);
    expect((failure as HttpStatusError).status).toBe(401);
    // A successful login clears the failed attempt from the login throttle.
    await client.getDevices();
  });

  it('removes the device, after which none is listed', async () => {
    const [device] = await client.getDevices();
    await expect(client.deleteDevice(device?.id ?? '')).resolves.toBeUndefined();
    expect(lastUrl().pathname).toBe(`${base}/devices/${device?.id}`);
    expect(await client.getDevices()).toEqual([]);
  });
});
