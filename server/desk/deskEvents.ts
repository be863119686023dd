import type { EventBus } from '../events/eventBus.js';

/**
 * Facts of the desk raised on the event bus as `gateway:fact`, which the webhook dispatcher
 * publishes under our own names (server/domain/webhookEvents.ts, docs/decisions.md "Webhook events").
 */
export function raiseDeskFact(
  events: EventBus,
  event: 'optout:added' | 'optout:removed' | 'autoreply:sent',
  deviceId: string,
  payload: Record<string, unknown>,
): void {
  events.emit('gateway:fact', { event, deviceId, payload });
}
