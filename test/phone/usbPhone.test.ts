import { createHmac, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { phoneWebhookEvents } from '../../server/devices/phone/phoneWebhooks.js';
import { AndroidPhoneDouble, phonePatience } from '../support/androidPhone.js';
import { createFakeAdb, type FakeAdb } from '../support/fakeAdb.js';
import { startGatewayHarness } from '../support/gatewayHarness.js';
import { startReceiver } from '../support/webhookReceiver.js';

/** Polling slowed to a crawl: what arrives within the wait came by webhook. */
const webhooksOnly = { pollIntervalMs: 120_000, retryInitialMs: 200, requestTimeoutMs: 3_000 };
const serial = 'R58M123ABC';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface DeviceBody {
  id: string;
  modem: { kind?: string; status: string; statusDetail?: string; port: string };
}

/** The fake adb first on PATH, as an installed platform-tools would be. */
function onPath(adb: FakeAdb): void {
  const previous = process.env.PATH;
  process.env.PATH = `${adb.directory}:${previous ?? ''}`;
  cleanups.push(() => {
    process.env.PATH = previous;
  });
}

async function usbPhoneAndGateway(state: 'device' | 'unauthorized' = 'device', timing = webhooksOnly) {
  const phone = new AndroidPhoneDouble();
  const appPort = await phone.start();
  cleanups.push(() => phone.stop());
  const adb = await createFakeAdb([{ serial, state, appPort }]);
  cleanups.push(() => adb.remove());
  onPath(adb);
  const harness = await startGatewayHarness({
    phoneTiming: timing,
    options: { phones: [`adb://${phone.username}:${phone.password}@${serial}`] },
  });
  cleanups.push(() => harness.close());
  const device = async () => {
    const found = (await harness.api.get<DeviceBody[]>('/devices')).body.find(
      (entry) => entry.modem.kind === 'android',
    );
    if (!found) throw new Error('no phone in GET /devices');
    return found;
  };
  return { phone, adb, harness, device };
}

/** Asks for an inbox refresh and waits until the phone's inbox was read once more. */
async function readPhoneInboxAgain(
  phone: AndroidPhoneDouble,
  harness: Awaited<ReturnType<typeof usbPhoneAndGateway>>['harness'],
): Promise<void> {
  const inboxReads = () => phone.requests.filter((request) => request.path === '/inbox').length;
  const before = inboxReads();
  expect((await harness.api.post('/inbox/refresh', {})).status).toBe(202);
  await vi.waitFor(() => expect(inboxReads()).toBeGreaterThan(before), phonePatience);
}

describe('an Android phone on USB (adb://…@SERIAL)', () => {
  it('is reached through an adb forward, reverses our port and registers its webhooks there', async () => {
    const { phone, adb, harness, device } = await usbPhoneAndGateway();
    await vi.waitFor(() => expect(phone.webhooks).toHaveLength(phoneWebhookEvents.length), phonePatience);
    expect((await device()).modem).toMatchObject({ status: 'ready', port: `adb://${serial}` });
    const gatewayPort = new URL(harness.url).port;
    const { calls, reverses } = await adb.state();
    expect(calls).toContain('devices -l');
    expect(calls).toContain(`-s ${serial} forward tcp:0 tcp:8080`);
    expect(reverses).toEqual([{ serial, remote: `tcp:${gatewayPort}`, local: `tcp:${gatewayPort}` }]);
    expect(phone.webhooks.map((webhook) => webhook.event).sort()).toEqual([
      'mms:downloaded',
      'mms:received',
      'sms:data-received',
      'sms:delivered',
      'sms:failed',
      'sms:received',
      'sms:sent',
    ]);
    // Our own random key, set in the app before the webhooks: every post is signed with it.
    expect(phone.signingKey).toMatch(/^[0-9a-f]{48}$/);
    for (const webhook of phone.webhooks) {
      expect(webhook.url).toMatch(
        new RegExp(`^http://127\\.0\\.0\\.1:${gatewayPort}/gateway/v1/phone-hooks/[0-9a-f]{48}$`),
      );
    }
  });

  it('follows a message to Delivered by webhook', async () => {
    const { phone, harness } = await usbPhoneAndGateway();
    await vi.waitFor(() => expect(phone.webhooks).toHaveLength(phoneWebhookEvents.length), phonePatience);
    const posted = await harness.api.post<{ id: string }>('/messages', {
      textMessage: { text: 'over USB' },
      phoneNumbers: ['+15551234567'],
    });
    const id = posted.body.id;
    await vi.waitFor(() => expect(phone.messages.has(id)).toBe(true), phonePatience);
    await phone.advance(id, 'Sent');
    await vi.waitFor(
      async () =>
        expect((await harness.api.get<{ state: string }>(`/messages/${id}`)).body.state).toBe('Sent'),
      phonePatience,
    );
    await phone.advance(id, 'Delivered');
    await vi.waitFor(
      async () =>
        expect((await harness.api.get<{ state: string }>(`/messages/${id}`)).body.state).toBe('Delivered'),
      phonePatience,
    );
    expect(phone.webhookDeliveries.every((delivery) => delivery.status === 204)).toBe(true);
    expect(phone.posts.get(id)).toBe(1);
  });

  it('stores an incoming SMS once when both the webhook and the inbox read bring it', async () => {
    const { phone, harness } = await usbPhoneAndGateway();
    await vi.waitFor(() => expect(phone.webhooks).toHaveLength(phoneWebhookEvents.length), phonePatience);
    await phone.receive('+15557654321', 'by webhook and by inbox');
    const inboxWith = async () =>
      (await harness.api.get<unknown[]>('/inbox')).body.filter((entry) =>
        JSON.stringify(entry).includes('by webhook and by inbox'),
      );
    await vi.waitFor(async () => expect(await inboxWith()).toHaveLength(1), phonePatience);
    await readPhoneInboxAgain(phone, harness);
    expect(await inboxWith()).toHaveLength(1);
  });

  it('stores a data SMS once when both the webhook and the inbox read bring it', async () => {
    const { phone, harness } = await usbPhoneAndGateway();
    await vi.waitFor(() => expect(phone.webhooks).toHaveLength(phoneWebhookEvents.length), phonePatience);
    await phone.receiveData('+15557654321', Uint8Array.from([0x0b, 0x05, 0x04]));
    const dataInInbox = async () =>
      (await harness.api.get<{ type: string }[]>('/inbox')).body.filter((entry) => entry.type === 'DATA_SMS');
    await vi.waitFor(async () => expect(await dataInInbox()).toHaveLength(1), phonePatience);
    expect(phone.webhookDeliveries.every((delivery) => delivery.status === 204)).toBe(true);
    await readPhoneInboxAgain(phone, harness);
    expect(await dataInInbox()).toHaveLength(1);
  });

  it('passes an MMS the phone received on as our mms:received webhook event, with the app’s payload', async () => {
    const { phone, harness } = await usbPhoneAndGateway();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    expect((await harness.api.post('/webhooks', { url: receiver.url, event: 'mms:received' })).status).toBe(
      201,
    );
    await vi.waitFor(() => expect(phone.webhooks).toHaveLength(phoneWebhookEvents.length), phonePatience);
    await phone.receiveMms('+15557654321', 'holiday photos', 51_200);
    await vi.waitFor(() => expect(receiver.requests).toHaveLength(1), phonePatience);
    const posted = JSON.parse(receiver.requests[0]?.body ?? '{}') as { event: string; payload: unknown };
    expect(posted.event).toBe('mms:received');
    expect(posted.payload).toMatchObject({ sender: '+15557654321', subject: 'holiday photos', size: 51_200 });
  });

  /**
   * capcom6/android-sms-gateway@0cdc5d86c6f3cc24101f27feefd926e801e8b2c7, under
   * app/src/main/java/me/capcom/smsgateway/: modules/webhooks/domain/WebHookEvent.kt defines
   * mms:downloaded, modules/receiver/ReceiverService.kt raises it with
   * modules/webhooks/payload/MmsDownloadedPayload.kt, each part's bytes in Base64
   * (modules/receiver/MmsContentReader.kt readPartData) — a photo outgrows an ordinary body.
   */
  it('passes a downloaded MMS on as our mms:downloaded webhook event, photo and all', async () => {
    const { phone, harness, device } = await usbPhoneAndGateway();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    expect((await harness.api.post('/webhooks', { url: receiver.url, event: 'mms:downloaded' })).status).toBe(
      201,
    );
    await vi.waitFor(() => expect(phone.webhooks).toHaveLength(phoneWebhookEvents.length), phonePatience);
    const photo = randomBytes(400 * 1024);
    await phone.receiveMmsDownloaded('+15557654321', {
      subject: 'holiday',
      body: 'the beach',
      parts: [{ contentType: 'image/jpeg', name: 'beach.jpg', bytes: photo }],
    });
    await vi.waitFor(() => expect(receiver.requests).toHaveLength(1), phonePatience);
    expect(phone.webhookDeliveries.every((delivery) => delivery.status === 204)).toBe(true);
    const posted = JSON.parse(receiver.requests[0]?.body ?? '{}') as {
      event: string;
      deviceId: string;
      payload: { attachments?: { data?: string }[] };
    };
    expect(posted.event).toBe('mms:downloaded');
    expect(posted.deviceId).toBe((await device()).id);
    expect(posted.payload).toMatchObject({
      sender: '+15557654321',
      phoneNumber: '+15557654321',
      simNumber: 1,
      subject: 'holiday',
      body: 'the beach',
      attachments: [{ contentType: 'image/jpeg', name: 'beach.jpg', size: photo.length }],
      receivedAt: expect.any(String),
    });
    expect(posted.payload.attachments?.[0]?.data).toBe(photo.toString('base64'));
  });

  it('refuses with 401 a post on the right path that the phone did not sign, or signed too long ago', async () => {
    const { phone, harness } = await usbPhoneAndGateway();
    await vi.waitFor(() => expect(phone.webhooks).toHaveLength(phoneWebhookEvents.length), phonePatience);
    const hookUrl = (phone.webhooks[0]?.url ?? '').replace(/^http:\/\/127\.0\.0\.1:\d+/, harness.url);
    const body = JSON.stringify({
      event: 'sms:received',
      payload: { messageId: 'abc', sender: '+15550001111', message: 'forged' },
    });
    const unsigned = await fetch(hookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(unsigned.status).toBe(401);
    const timestamp = String(Math.floor(Date.now() / 1_000));
    const wrongKey = await fetch(hookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'X-Timestamp': timestamp,
        'X-Signature': createHmac('sha256', 'not the key')
          .update(body + timestamp)
          .digest('hex'),
      },
      body,
    });
    expect(wrongKey.status).toBe(401);
    // The phone's clock ten minutes behind: its own signature is too old to be taken.
    phone.clockSkewSeconds = -600;
    await phone.receive('+15557654321', 'from a phone with a wrong clock');
    expect(phone.webhookDeliveries.at(-1)?.status).toBe(401);
    const inbox = (await harness.api.get<unknown[]>('/inbox')).text;
    expect(inbox).not.toContain('forged');
    expect(inbox).not.toContain('wrong clock');
    expect(harness.logs.filter((record) => record.message.includes('not signed by the phone'))).toHaveLength(
      3,
    );
  });

  it('refuses a post to an unknown hook path', async () => {
    const { phone, harness } = await usbPhoneAndGateway();
    await vi.waitFor(() => expect(phone.webhooks).toHaveLength(phoneWebhookEvents.length), phonePatience);
    const response = await fetch(`${harness.url}/gateway/v1/phone-hooks/${'0'.repeat(48)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: 'sms:received',
        payload: { messageId: '1', sender: '+1', message: 'forged' },
      }),
    });
    expect(response.status).toBe(404);
  });

  it('says what to do on the phone while USB debugging is not allowed', async () => {
    const { device, harness } = await usbPhoneAndGateway('unauthorized');
    const listing = await harness.api.get<{
      adb: string;
      phones: { serial: string; state: string; advice?: string }[];
    }>('/gateway/v1/usb-phones');
    expect(listing.body).toMatchObject({
      adb: 'found',
      phones: [{ serial, state: 'unauthorized', inUse: true }],
    });
    expect(listing.body.phones[0]?.advice).toMatch(/allow USB debugging/);
    await vi.waitFor(async () => {
      const { modem } = await device();
      expect(modem.status).toBe('offline');
      expect(modem.statusDetail).toMatch(/allow USB debugging/);
    }, phonePatience);
  });
});

describe('a USB phone that goes away and comes back', () => {
  it('forwards again after a replug, and loses our webhooks when it is removed', async () => {
    const { phone, adb, harness, device } = await usbPhoneAndGateway('device', {
      ...webhooksOnly,
      pollIntervalMs: 300,
    });
    await vi.waitFor(() => expect(phone.webhooks).toHaveLength(phoneWebhookEvents.length), phonePatience);
    const appPort = (await adb.state()).phones[0]?.appPort ?? 0;
    await adb.setPhones([]);
    await phone.unplug();
    await vi.waitFor(async () => {
      const { modem } = await device();
      expect(modem.status).toBe('offline');
      expect(modem.statusDetail).toMatch(/not plugged in/);
    }, phonePatience);
    await phone.plugIn();
    await adb.setPhones([{ serial, state: 'device', appPort }]);
    await vi.waitFor(async () => expect((await device()).modem.status).toBe('ready'), phonePatience);
    const forwards = (await adb.state()).calls.filter((call) => call.endsWith('forward tcp:0 tcp:8080'));
    expect(forwards.length).toBeGreaterThanOrEqual(2);

    const removed = await harness.api.request('DELETE', `/devices/${(await device()).id}`);
    expect(removed.status).toBe(204);
    expect(phone.webhooks).toHaveLength(0);
  });
});
