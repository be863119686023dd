import type { WebhookEvent } from '../../contract/domain/webhookEvents.js';

/**
 * A fact of the desk as `gateway:fact`, which the webhook dispatcher publishes under our own
 * names (server/contract/domain/webhookEvents.ts, docs/decisions.md "Webhook events"). It is recorded in
 * the commit that stores it (events/factAnnouncer.ts), so a crash cannot lose its webhooks.
 */
export function deskFact(
  event: 'optout:added' | 'optout:removed' | 'autoreply:sent',
  deviceId: string,
  payload: Record<string, unknown>,
): WebhookEvent {
  return { event, deviceId, payload };
}
