/**
 * Fleet mode, what the server manages: its webhooks (`GET /mobile/v1/webhooks`, re-read on
 * WebhooksUpdated) and settings (`GET /mobile/v1/settings`, on SettingsUpdated) are applied as
 * the app's WebhooksUpdateWorker and SettingsUpdateWorker do, and refused to local changes while
 * the server manages them. The server is the contract double
 * of its device API (test/support/fleetServerDouble.ts; the Go server cannot be built here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetServerDouble, startFleetServerDouble } from '../support/fleetServerDouble.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { startReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { waitForFleetState, waitForReport } from './support/fleetReads.js';

interface WebhookView {
  id: string;
  url: string;
  event: string;
  source?: string;
}

describe('fleet mode: webhooks and settings from the server', () => {
  let double: FleetServerDouble;
  let harness: GatewayHarness;
  let receiver: WebhookReceiver;
  let userId: string;

  const listed = async () => (await harness.api.get<WebhookView[]>('/webhooks')).body;

  beforeAll(async () => {
    double = await startFleetServerDouble();
    receiver = await startReceiver();
    harness = await startGatewayHarness({
      simulatedModems: 1,
      options: { fleetServer: { url: double.baseUrl, token: double.serverKey } },
    });
    await waitForFleetState(harness.api, 'connected');
    userId = double.devices[0]?.userId ?? '';
  });

  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
    await double?.close();
  });

  it('applies the server webhooks it supports on WebhooksUpdated and delivers them', async () => {
    const local = await harness.api.post<WebhookView>('/webhooks', {
      url: receiver.url,
      event: 'sms:received',
    });
    expect(local.status).toBe(201);
    double.setWebhooks(userId, [
      { id: 'server-sent', url: receiver.url, event: 'sms:sent' },
      { id: 'server-unknown', url: receiver.url, event: 'sms:unheard-of' },
    ]);
    await pollUntil(async () => (await listed()).some((webhook) => webhook.id === 'server-sent'), {
      what: 'the server webhook on the gateway',
    });
    const webhooks = await listed();
    expect(webhooks.find((webhook) => webhook.id === 'server-sent')).toMatchObject({
      event: 'sms:sent',
      source: 'server',
    });
    expect(webhooks.some((webhook) => webhook.id === 'server-unknown')).toBe(false);
    expect(webhooks.find((webhook) => webhook.id === local.body.id)?.source).toBeUndefined();

    const message = double.enqueue({ text: 'hooked', phoneNumbers: ['+447700900701'] });
    await waitForReport(double, message.id, 'Sent');
    await pollUntil(
      () =>
        receiver.requests.some((request) => {
          const body = JSON.parse(request.body) as { event: string; payload: { messageId?: string } };
          return body.event === 'sms:sent' && body.payload.messageId === message.id;
        }),
      { what: 'sms:sent of the server message at the receiver' },
    );
  });

  it('refuses to change or remove a server webhook locally, with 403 naming the id', async () => {
    const removal = await harness.api.request('DELETE', '/webhooks/server-sent');
    expect(removal.status).toBe(403);
    expect(removal.text).toContain('server-sent');
    const replacement = await harness.api.post('/webhooks', {
      id: 'server-sent',
      url: receiver.url,
      event: 'sms:failed',
    });
    expect(replacement.status).toBe(403);
    expect((await listed()).find((webhook) => webhook.id === 'server-sent')?.event).toBe('sms:sent');
  });

  it('drops a webhook the server removed, keeping the local ones', async () => {
    double.setWebhooks(userId, []);
    await pollUntil(async () => !(await listed()).some((webhook) => webhook.id === 'server-sent'), {
      what: 'the server webhook gone',
    });
    expect((await listed()).map((webhook) => webhook.event)).toEqual(['sms:received']);
  });

  it('applies the server settings it has and refuses local changes to them, naming the key', async () => {
    double.setSettings(userId, {
      messages: { send_interval_min: 2, send_interval_max: 3, processing_order: 'FIFO' },
      receiver: { inbox_refresh: true },
      gateway: { cloud_url: 'https://elsewhere.example.com/api/mobile/v1' },
    });
    type SettingsView = { messages: Record<string, unknown>; gateway: Record<string, unknown> };
    await pollUntil(
      async () =>
        (await harness.api.get<SettingsView>('/settings')).body.messages.processing_order === 'FIFO',
      {
        what: 'the server settings on the gateway',
      },
    );
    const settings = (await harness.api.get<SettingsView>('/settings')).body;
    expect(settings.messages).toMatchObject({ send_interval_min: 2, send_interval_max: 3 });
    expect(settings.gateway.cloud_url).toBe(double.baseUrl);

    const refused = await harness.api.patch('/settings', { messages: { processing_order: 'LIFO' } });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('messages.processing_order');
    const allowed = await harness.api.patch('/settings', {
      messages: { limit_period: 'PerHour', limit_value: 50 },
    });
    expect(allowed.status).toBe(200);

    // Keys the server stops sending are the user's again.
    double.setSettings(userId, { messages: { send_interval_min: 2, send_interval_max: 3 } });
    await pollUntil(
      async () =>
        (await harness.api.patch('/settings', { messages: { processing_order: 'LIFO' } })).status === 200,
      {
        what: 'processing_order released',
      },
    );
  });
});
