/**
 * Webhook event kinds (DESIGN §2; the spec shows `sms:received` and leaves the rest to the
 * upstream project). MMS events are left out: this gateway never receives MMS.
 */
export const WebhookEventNames = [
  'sms:received',
  'sms:data-received',
  'sms:sent',
  'sms:delivered',
  'sms:failed',
  'sms:cancelled',
  'system:ping',
  'app:started',
] as const;

export type WebhookEventName = (typeof WebhookEventNames)[number];

/** One thing that happened, before it is fanned out to the webhooks registered for it. */
export interface WebhookEvent {
  event: WebhookEventName;
  deviceId: string;
  payload: Record<string, unknown>;
}
