/**
 * Webhook event kinds: every name the ecosystem defines (the app's `WebHookEvent`, the server's
 * and the clients' event lists), so a client registering any of them is never refused — Home
 * Assistant registers `mms:received` by default and stops at the first refusal.
 *
 * Which ones this gateway raises (docs/decisions.md "Webhook events"): the `sms:*` events, `system:ping`,
 * `app:started`, and `sms:batch:received` / `sms:batch:data-received` for an inbox refresh or
 * export asked with `webhookDelivery: "Batch"`. `mms:received` and `mms:downloaded` come only
 * from Android phones, passed on with the app's payload (server/devices/phone/phoneWebhooks.ts): a modem
 * driven over AT commands does not download MMS. `mms:batch:*` are accepted and never raised.
 *
 * Our own names (not in the upstream lists; docs/decisions.md "Webhook events"): `call:missed` for each
 * voice call that rang on a modem, `modem:low-balance` when a scheduled balance check finds the
 * balance below the modem's threshold, `plan:cap-warning` / `plan:cap-reached` when a SIM's use
 * reaches 80 % / 100 % of a cap of its plan.
 */
export const WebhookEventNames = [
  'sms:received',
  'sms:data-received',
  'sms:sent',
  'sms:delivered',
  'sms:failed',
  'sms:cancelled',
  'sms:batch:received',
  'sms:batch:data-received',
  'mms:received',
  'mms:downloaded',
  'mms:batch:received',
  'mms:batch:downloaded',
  'system:ping',
  'app:started',
  'call:missed',
  'modem:low-balance',
  // Ours, not the spec's (docs/decisions.md "Webhook events"): the desk's opt-out list and auto-replies.
  'optout:added',
  'optout:removed',
  'autoreply:sent',
  // Ours: a SIM's use reached 80 % or 100 % of a cap of its plan (server/services/plans/).
  'plan:cap-warning',
  'plan:cap-reached',
] as const;

export type WebhookEventName = (typeof WebhookEventNames)[number];

/** Upstream's batch events carry at most this many messages each, oldest first. */
export const maxBatchMessages = 100;

/** One thing that happened, before it is fanned out to the webhooks registered for it. */
export interface WebhookEvent {
  event: WebhookEventName;
  deviceId: string;
  payload: Record<string, unknown>;
  /**
   * Set on an outgoing message's events: the app that queued it ('default' for the owner
   * login's, the desk's and the private server's), whose webhooks alone hear them besides the
   * default app's (webhooks/webhookAudience.ts).
   */
  owner?: string;
  /**
   * Set on a received message's event: the app it replies to, as recorded when it arrived, which
   * an app's incoming rule "replies" hears (webhooks/webhookAudience.ts).
   */
  repliesTo?: string;
  /** Set on a single received message's event: the SIM slot it arrived on. */
  simNumber?: number;
}

/**
 * How replayed messages become webhooks (upstream's `webhookDelivery` of an inbox refresh,
 * client-go CHANGELOG 1.14.5): none, one event per message, or batch events of up to 100.
 */
export const WebhookDeliveryModes = ['Disabled', 'Individual', 'Batch'] as const;
export type WebhookDeliveryMode = (typeof WebhookDeliveryModes)[number];
