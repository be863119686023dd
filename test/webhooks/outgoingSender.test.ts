/**
 * `sender` of the outgoing-message events, as the app fills it: the number of the SIM that sent,
 * when the device knows it, and no field at all when it does not. Read from
 * capcom6/android-sms-gateway@0cdc5d86c6f3cc24101f27feefd926e801e8b2c7, under
 * app/src/main/java/me/capcom/smsgateway/:
 * - modules/webhooks/EventsReceiver.kt: sms:sent, sms:delivered, sms:failed and sms:cancelled
 *   take `sender` from SubscriptionsHelper.getPhoneNumber for the message's `simNumber`;
 * - helpers/SubscriptionsHelper.kt getPhoneNumber: the SIM's number, null when unknown or blank;
 * - modules/webhooks/payload/SmsEventPayload.kt: `sender: String?` on those four payloads;
 * - extensions/GsonBuilder.kt (what workers/SendWebhookWorker.kt posts with): no serializeNulls,
 *   so an unknown sender is left out, not sent as null.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MessageRecord, MessageState } from '../../server/contract/domain/message.js';
import { type OwnNumberLookup, payloadsForUpdate } from '../../server/services/webhooks/eventPayloads.js';
import { waitForReadyModems } from '../integration/support/apiReads.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { startReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

const ownNumber = '+447700900001';

function messageIn(state: MessageState, deviceId: string | undefined): MessageRecord {
  return {
    id: 'msg-1',
    ...(deviceId === undefined ? {} : { deviceId }),
    content: { kind: 'text', text: 'hello' },
    recipients: [{ phoneNumber: '+15551234567', state, updatedAt: Date.UTC(2026, 0, 1) }],
    simNumber: 2,
    withDeliveryReport: true,
    priority: 0,
    isEncrypted: false,
    createdAt: Date.UTC(2026, 0, 1),
    sequence: 1,
    states: {},
    state,
  };
}

/** Knows the number of SIM 2 in modem-a only. */
const lookup: OwnNumberLookup = (deviceId, simNumber) =>
  deviceId === 'modem-a' && simNumber === 2 ? ownNumber : undefined;

describe('sender of an outgoing-message event', () => {
  it.each([
    ['Sent', 'Processed', 'sms:sent'],
    ['Delivered', 'Sent', 'sms:delivered'],
    ['Failed', 'Processed', 'sms:failed'],
  ] as const)('is the sending SIM’s own number when %s', (state, before, event) => {
    const [published] = payloadsForUpdate(messageIn(state, 'modem-a'), messageIn(before, 'modem-a'), lookup);
    expect(published?.event).toBe(event);
    expect(published?.payload).toMatchObject({
      sender: ownNumber,
      recipient: '+15551234567',
      phoneNumber: '+15551234567',
      simNumber: 2,
    });
  });

  it('is left out when the device does not know its SIM’s number', () => {
    const [published] = payloadsForUpdate(
      messageIn('Sent', 'modem-b'),
      messageIn('Processed', 'modem-b'),
      lookup,
    );
    expect(published?.event).toBe('sms:sent');
    expect(published?.payload).not.toHaveProperty('sender');
  });

  it('is left out of sms:cancelled when no device took the message', () => {
    const [published] = payloadsForUpdate(
      messageIn('Cancelled', undefined),
      messageIn('Pending', undefined),
      lookup,
    );
    expect(published?.event).toBe('sms:cancelled');
    expect(published?.payload).not.toHaveProperty('sender');
  });
});

describe('sender on the whole gateway', () => {
  let harness: GatewayHarness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    harness = await startGatewayHarness({ simulatedModems: 1 });
    await waitForReadyModems(harness.api, 1);
  });

  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  it('is the number the modem answered to AT+CNUM', async () => {
    const devices = await harness.api.get<{ simCards: { phoneNumber?: string }[] }[]>('/devices');
    expect(devices.body[0]?.simCards[0]?.phoneNumber).toBe(ownNumber);
    expect((await harness.api.post('/webhooks', { url: receiver.url, event: 'sms:sent' })).status).toBe(201);
    const posted = await harness.api.post<{ id: string }>('/messages', {
      textMessage: { text: 'who sent this?' },
      phoneNumbers: ['+447700900123'],
      withDeliveryReport: false,
    });
    expect(posted.status).toBe(202);
    await vi.waitFor(() => expect(receiver.requests).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const envelope = JSON.parse(receiver.requests[0]?.body ?? '{}') as { payload: unknown };
    expect(envelope.payload).toMatchObject({
      messageId: posted.body.id,
      sender: ownNumber,
      recipient: '+447700900123',
    });
  });
});
