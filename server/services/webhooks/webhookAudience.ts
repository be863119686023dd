import type { WebhookEvent } from '../../contract/domain/webhookEvents.js';
import type { WebhookTarget } from './webhookDelivery.js';

/**
 * Which apps' webhooks hear an event (docs/accounts-plans-routing.md). The default app's (the
 * owner login's, registered before apps existed) hear everything, as they always did. An app's
 * hear the events of the messages it queued and no other app's; incoming messages as its
 * incoming rule says; and the gateway's own events (system:ping, modem events).
 */
export type IncomingRule = (
  appId: string,
  origin: { deviceId: string; simNumber?: number | undefined; repliesTo?: string | undefined },
) => boolean;

/**
 * A batch (an inbox replay) comes from one modem and names no app or SIM slot per message: an
 * app hears it only when its rule takes every message of that modem (all, or by the whole
 * modem), never in part.
 */
const incomingEvents: ReadonlySet<string> = new Set([
  'sms:received',
  'sms:data-received',
  'mms:received',
  'mms:downloaded',
  'sms:batch:received',
  'sms:batch:data-received',
  'mms:batch:received',
  'mms:batch:downloaded',
]);

export function reachesTarget(
  target: WebhookTarget,
  event: WebhookEvent,
  incomingFor: IncomingRule,
): boolean {
  if (target.appId === undefined) return true;
  if (event.owner !== undefined) return event.owner === target.appId;
  if (incomingEvents.has(event.event)) {
    return incomingFor(target.appId, {
      deviceId: event.deviceId,
      simNumber: event.simNumber,
      repliesTo: event.repliesTo,
    });
  }
  return true;
}
