import { toIsoWithOffset } from '../clock/isoTime.js';
import type { IncomingBatchEvent, IncomingMessageEvent } from '../domain/incoming.js';
import type { MessageRecord, RecipientRecord } from '../domain/message.js';
import type { WebhookEvent } from '../domain/webhookEvents.js';

/**
 * Maps what happened in the gateway to upstream-shaped webhook payloads (DESIGN §2):
 * `messageId`, `phoneNumber`, `simNumber`, plus per event the time and details.
 */
export function payloadForIncoming(incoming: IncomingMessageEvent): WebhookEvent {
  return {
    event: incoming.type === 'DATA_SMS' ? 'sms:data-received' : 'sms:received',
    deviceId: incoming.deviceId,
    payload: incomingPayload(incoming),
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

/** One event per recipient whose state changed into Sent, Delivered, Failed or Cancelled. */
export function payloadsForUpdate(message: MessageRecord, previous: MessageRecord): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  for (const [index, recipient] of message.recipients.entries()) {
    const before = previous.recipients[index]?.state;
    if (before === recipient.state) continue;
    const event = eventForRecipient(message, recipient);
    if (event) events.push(event);
  }
  return events;
}

function eventForRecipient(message: MessageRecord, recipient: RecipientRecord): WebhookEvent | undefined {
  const at = toIsoWithOffset(recipient.updatedAt ?? message.createdAt);
  const deviceId = message.deviceId ?? message.requestedDeviceId ?? '';
  const common = {
    messageId: message.id,
    phoneNumber: recipient.phoneNumber,
    recipient: recipient.phoneNumber,
    simNumber: message.simNumber ?? 1,
  };
  switch (recipient.state) {
    case 'Sent':
      return {
        event: 'sms:sent',
        deviceId,
        payload: { ...common, partsCount: recipient.parts?.length ?? 1, sentAt: at },
      };
    case 'Delivered':
      return { event: 'sms:delivered', deviceId, payload: { ...common, deliveredAt: at } };
    case 'Failed':
      return {
        event: 'sms:failed',
        deviceId,
        payload: { ...common, failedAt: at, reason: recipient.error ?? 'failed' },
      };
    case 'Cancelled':
      return { event: 'sms:cancelled', deviceId, payload: { ...common, cancelledAt: at } };
    default:
      return undefined;
  }
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
