import { toIsoWithOffset } from '../../clock/isoTime.js';
import type { IncomingBatchEvent, IncomingMessageEvent } from '../../contract/domain/incoming.js';
import type { MessageRecord, RecipientRecord } from '../../contract/domain/message.js';
import type { WebhookEvent, WebhookEventName } from '../../contract/domain/webhookEvents.js';

/**
 * Maps what happened in the gateway to upstream-shaped webhook payloads (docs/decisions.md#webhooks):
 * `messageId`, `phoneNumber`, `sender`/`recipient`, `simNumber`, plus per event the time and details.
 */
export function payloadForIncoming(incoming: IncomingMessageEvent): WebhookEvent {
  return {
    event: incoming.type === 'DATA_SMS' ? 'sms:data-received' : 'sms:received',
    deviceId: incoming.deviceId,
    simNumber: incoming.simNumber,
    payload: incomingPayload(incoming),
    ...(incoming.repliesTo === undefined ? {} : { repliesTo: incoming.repliesTo }),
  };
}

/**
 * Upstream's batch events (client-go `smsgateway/dto_webhooks.go` SmsBatchReceivedPayload):
 * `{messages: [...]}`, each element the payload its single event would carry.
 */
export function payloadForIncomingBatch(batch: IncomingBatchEvent): WebhookEvent {
  return {
    event: batch.type === 'DATA_SMS' ? 'sms:batch:data-received' : 'sms:batch:received',
    deviceId: batch.deviceId,
    payload: { messages: batch.messages.map(incomingPayload) },
  };
}

function incomingPayload(incoming: IncomingMessageEvent): Record<string, unknown> {
  const content = incoming.type === 'DATA_SMS' ? { data: incoming.content } : { message: incoming.content };
  return withoutUndefined({
    messageId: incoming.id,
    phoneNumber: incoming.sender,
    sender: incoming.sender,
    recipient: incoming.recipient,
    simNumber: incoming.simNumber,
    ...content,
    receivedAt: toIsoWithOffset(incoming.receivedAt),
  });
}

/** The number of a device's SIM (AT+CNUM, or what a phone reports), when the device knows it. */
export type OwnNumberLookup = (deviceId: string, simNumber: number) => string | undefined;

/**
 * One event per recipient whose state changed into Sent, Delivered, Failed or Cancelled. Each
 * names the sending SIM's own number as `sender` when known and leaves the field out otherwise,
 * as the app does (capcom6/android-sms-gateway `modules/webhooks/EventsReceiver.kt`, whose Gson
 * drops nulls).
 */
export function payloadsForUpdate(
  message: MessageRecord,
  previous: MessageRecord,
  ownNumber: OwnNumberLookup,
): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  for (const [index, recipient] of message.recipients.entries()) {
    const before = previous.recipients[index]?.state;
    if (before === recipient.state) continue;
    const event = eventForRecipient(message, recipient, ownNumber);
    if (event) events.push(event);
  }
  return events;
}

function eventForRecipient(
  message: MessageRecord,
  recipient: RecipientRecord,
  ownNumber: OwnNumberLookup,
): WebhookEvent | undefined {
  const at = toIsoWithOffset(recipient.updatedAt ?? message.createdAt);
  const details = detailsOf(recipient, at);
  if (!details) return undefined;
  const deviceId = message.deviceId ?? message.requestedDeviceId ?? '';
  const simNumber = message.simNumber ?? 1;
  const common = withoutUndefined({
    messageId: message.id,
    phoneNumber: recipient.phoneNumber,
    sender: ownNumber(deviceId, simNumber),
    recipient: recipient.phoneNumber,
    simNumber,
  });
  return { event: details.event, deviceId, payload: { ...common, ...details.fields } };
}

/** The event a recipient's new state raises and its own fields; none for Pending or Processed. */
function detailsOf(
  recipient: RecipientRecord,
  at: string,
): { event: WebhookEventName; fields: Record<string, unknown> } | undefined {
  switch (recipient.state) {
    case 'Sent':
      return { event: 'sms:sent', fields: { partsCount: recipient.parts?.length ?? 1, sentAt: at } };
    case 'Delivered':
      return { event: 'sms:delivered', fields: { deliveredAt: at } };
    case 'Failed':
      return { event: 'sms:failed', fields: { failedAt: at, reason: recipient.error ?? 'failed' } };
    case 'Cancelled':
      return { event: 'sms:cancelled', fields: { cancelledAt: at } };
    default:
      return undefined;
  }
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
