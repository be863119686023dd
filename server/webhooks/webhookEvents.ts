/**
 * Event kinds a webhook can subscribe to (DESIGN §2; the spec shows `sms:received` and leaves
 * the rest to the upstream project). MMS events are left out: this gateway never receives MMS.
 */
export const WebhookEvents = [
  'sms:received',
  'sms:data-received',
  'sms:sent',
  'sms:delivered',
  'sms:failed',
  'sms:cancelled',
  'system:ping',
  'app:started',
] as const;

export type WebhookEvent = (typeof WebhookEvents)[number];

export function isWebhookEvent(value: string): value is WebhookEvent {
  return (WebhookEvents as readonly string[]).includes(value);
}
