/**
 * Fleet mode, inbox export: a MessagesExportRequested push of the private server (its
 * `POST /3rdparty/v1/inbox/refresh`) replays the received messages of the period as webhooks,
 * through the same replay as our `POST /inbox/export`, and to the webhooks the server manages.
 * The server is the contract double of its device API (test/support/fleetServerDouble.ts; the
 * Go server cannot be built here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAllInbox } from '../integration/support/apiReads.js';
import { type FleetServerDouble, startFleetServerDouble } from '../support/fleetServerDouble.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { startReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { waitForFleetState } from './support/fleetReads.js';

interface Delivery {
  event: string;
  payload: { message?: string; messages?: { message?: string }[] };
}

describe('fleet mode inbox export', () => {
  let double: FleetServerDouble;
  let harness: GatewayHarness;
  let receiver: WebhookReceiver;
  let deviceId: string;

  const deliveries = () => receiver.requests.map((request) => JSON.parse(request.body) as Delivery);
  const receivedTexts = () =>
    deliveries()
      .filter((delivery) => delivery.event === 'sms:received')
      .map((delivery) => delivery.payload.message);

  beforeAll(async () => {
    double = await startFleetServerDouble();
    receiver = await startReceiver();
    harness = await startGatewayHarness({
      simulatedModems: 1,
      options: { fleetServer: { url: double.baseUrl, token: double.serverKey } },
    });
    await waitForFleetState(harness.api, 'connected');
    deviceId = double.devices[0]?.id ?? '';
    double.setWebhooks(double.devices[0]?.userId ?? '', [
      { id: 'export-hook', url: receiver.url, event: 'sms:received' },
      { id: 'export-batch-hook', url: receiver.url, event: 'sms:batch:received' },
    ]);
    await pollUntil(async () => (await harness.api.get<unknown[]>('/webhooks')).body.length === 2, {
      what: 'the server webhooks on the gateway',
    });
    harness.gateway.simulatedModems[0]?.injectIncoming({ sender: '+447700900901', text: 'stored before' });
    await pollUntil(async () => (await listAllInbox(harness.api)).length === 1, {
      what: 'the SMS in the inbox',
    });
    await pollUntil(() => receivedTexts().length === 1, { what: 'the live sms:received webhook' });
  });

  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
    await double?.close();
  });

  it('replays the period as sms:received webhooks when the server asks for an export', async () => {
    double.requestExport(deviceId, {
      since: new Date(Date.now() - 3_600_000),
      until: new Date(Date.now() + 60_000),
      webhookDelivery: 'Individual',
    });
    await pollUntil(() => receivedTexts().length === 2, { what: 'the replayed sms:received webhook' });
    expect(receivedTexts()).toEqual(['stored before', 'stored before']);
  });

  it('replays nothing outside the period, and nothing for an export of MMS only', async () => {
    const before = receiver.requests.length;
    double.requestExport(deviceId, {
      since: new Date(Date.now() - 7_200_000),
      until: new Date(Date.now() - 3_600_000),
      webhookDelivery: 'Individual',
    });
    double.requestExport(deviceId, {
      since: new Date(Date.now() - 3_600_000),
      until: new Date(Date.now() + 60_000),
      messageTypes: ['MMS'],
      webhookDelivery: 'Individual',
    });
    // A third export that does replay; the stream hands the gateway the two before it first.
    double.requestExport(deviceId, {
      since: new Date(Date.now() - 3_600_000),
      until: new Date(Date.now() + 60_000),
      messageTypes: ['SMS'],
      webhookDelivery: 'Batch',
    });
    await pollUntil(() => receiver.requests.length > before, { what: 'the batch export' });
    const sent = deliveries().slice(before);
    expect(sent.map((delivery) => delivery.event)).toEqual(['sms:batch:received']);
    expect(sent[0]?.payload.messages?.map((message) => message.message)).toEqual(['stored before']);
  });
});
