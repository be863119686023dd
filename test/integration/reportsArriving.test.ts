/**
 * Delivery reports that used to be lost (issue 47), through the HTTP API, a simulated modem on a
 * pty and a webhook receiver: the reports of a long message's first parts, which come while its
 * last part is still being sent, and reports stored on a 20-slot SIM (+CDSI) at several a
 * second. Each message ends Delivered, and an sms:delivered webhook arrives for each.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatedModemOptions } from '../../server/devices/simulator/simulatedModemOptions.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { startReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { type ApiMessage, waitForReadyModems } from './support/apiReads.js';

/** 400 Cyrillic characters: UCS-2, six parts of at most 67. */
const cyrillic = 'Съешь же ещё этих мягких французских булок, да выпей чаю. '.repeat(7).slice(0, 400);

describe('delivery reports that come early or fast', () => {
  let harness: GatewayHarness | undefined;
  let receiver: WebhookReceiver | undefined;

  afterEach(async () => {
    await harness?.close();
    await receiver?.close();
  });

  async function start(modem: Omit<SimulatedModemOptions, 'clock' | 'logger'>): Promise<GatewayHarness> {
    receiver = await startReceiver();
    const started = await startGatewayHarness({ ptyModems: 1, ptyModemOptions: () => modem });
    harness = started;
    await waitForReadyModems(started.api, 1);
    const hooked = await started.api.post('/webhooks', { url: receiver.url, event: 'sms:delivered' });
    expect(hooked.status).toBe(201);
    return started;
  }

  const deliveredHooks = (ids: readonly string[]) =>
    (receiver?.requests ?? [])
      .map((request) => JSON.parse(request.body) as { payload: { messageId: string } })
      .filter((hook) => ids.includes(hook.payload.messageId));

  async function allDelivered(gateway: GatewayHarness, ids: readonly string[]): Promise<void> {
    await pollUntil(
      async () => {
        const states = await Promise.all(ids.map((id) => gateway.api.get<ApiMessage>(`/messages/${id}`)));
        return states.every((state) => state.body.state === 'Delivered');
      },
      { what: `${ids.length} messages Delivered`, limitMs: 120_000, intervalMs: 200 },
    );
    await pollUntil(() => deliveredHooks(ids).length === ids.length, {
      what: 'an sms:delivered webhook for each',
      limitMs: 60_000,
    });
  }

  it("takes the reports of a long message's first parts that come before its last is sent", async () => {
    const gateway = await start({ sendDelayMs: 200, statusReportDelayMs: 500 });
    const sent = await gateway.api.post<ApiMessage>('/messages', {
      textMessage: { text: cyrillic },
      phoneNumbers: ['+447700900801'],
      withDeliveryReport: true,
    });
    expect(sent.status).toBe(202);
    await allDelivered(gateway, [sent.body.id]);
    expect(
      gateway.acceptedBy(0).filter((pdu) => pdu.decoded.recipient.number === '+447700900801'),
    ).toHaveLength(6);
  }, 180_000);

  it('takes reports stored on a 20-slot SIM as they come, several a second', async () => {
    // 150 ms a send: about 7 reports a second reach the SIM, as in the report that found this,
    // however fast or loaded the machine running the gateway is.
    const gateway = await start({
      storageSize: 20,
      statusReportMode: 'cdsi',
      sendDelayMs: 150,
      statusReportDelayMs: 3_000,
    });
    const ids: string[] = [];
    for (let index = 0; index < 60; index++) {
      const sent = await gateway.api.post<ApiMessage>('/messages', {
        textMessage: { text: `report ${index}` },
        phoneNumbers: [`+4477009009${String(index).padStart(2, '0')}`],
        withDeliveryReport: true,
      });
      expect(sent.status).toBe(202);
      ids.push(sent.body.id);
    }
    await allDelivered(gateway, ids);
    expect(deliveredHooks(ids)).toHaveLength(60);
  }, 240_000);
});
