import { type WebhookDeliveryMode, WebhookDeliveryModes } from '../../contract/domain/webhookEvents.js';
import { deliveryMode, type InboxPeriod } from '../../services/inbox/inboxReplay.js';
import type { MessageCancelledData, MessagesExportRequestedData } from './mobileApi.js';

/**
 * The id a MessageCancelled names. A push's data is its `map[string]string` as JSON (server
 * modules/sse/service.go Send).
 */
export function cancelledMessageIdOf(data: string): string | undefined {
  const parsed = objectOf(data) as Partial<Record<keyof MessageCancelledData, unknown>> | undefined;
  return typeof parsed?.messageId === 'string' && parsed.messageId !== '' ? parsed.messageId : undefined;
}

/** What a MessagesExportRequested asks of the inbox replay. */
export interface ExportRequest {
  period: Required<Pick<InboxPeriod, 'since' | 'until'>>;
  mode: WebhookDeliveryMode;
}

/**
 * The replay a MessagesExportRequested asks for, or a reason it asks for nothing we can do.
 * The period is the whole gateway's (the server knows it as one device). As the app's
 * `MessagesExportRequestedEvent.withPayload` (capcom6/android-sms-gateway
 * 0cdc5d86c6f3cc24101f27feefd926e801e8b2c7): no `messageTypes` means SMS, and webhooks are
 * triggered unless `triggerWebhooks` says "false" — but `webhookDelivery`, which the server
 * sends beside it since its batch webhooks, wins, as it does on our own API.
 */
export function exportRequestOf(data: string): ExportRequest | { refused: string } {
  const parsed = objectOf(data) as Partial<Record<keyof MessagesExportRequestedData, unknown>> | undefined;
  if (!parsed) return { refused: 'it carries no data object' };
  const since = typeof parsed.since === 'string' ? Date.parse(parsed.since) : Number.NaN;
  const until = typeof parsed.until === 'string' ? Date.parse(parsed.until) : Number.NaN;
  if (Number.isNaN(since) || Number.isNaN(until)) return { refused: 'since or until is not a time' };
  // The inbox replay sends SMS only (inboxReplay.ts): an export of MMS alone has nothing to send.
  const types = typeof parsed.messageTypes === 'string' ? parsed.messageTypes.split(',') : ['SMS'];
  if (!types.includes('SMS')) return { refused: `we hold no ${types.join(', ')} messages` };
  const webhookDelivery = WebhookDeliveryModes.find((mode) => mode === parsed.webhookDelivery);
  const triggerWebhooks =
    parsed.triggerWebhooks === 'true' ? true : parsed.triggerWebhooks === 'false' ? false : undefined;
  return { period: { since, until }, mode: deliveryMode(webhookDelivery, triggerWebhooks, true) };
}

function objectOf(data: string): object | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}
