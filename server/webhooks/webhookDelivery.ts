import type { WebhookEventName } from '../domain/webhookEvents.js';

/** A registered webhook as the dispatcher needs it (the registry owns the records). */
export interface WebhookTarget {
  id: string;
  url: string;
  event: string;
  deviceId?: string;
  /** The app that registered it (auth/appDirectory.ts); absent: the default app. */
  appId?: string;
}

export interface DeliveryAttempt {
  at: number;
  /** HTTP status when the receiver answered. */
  status?: number;
  error?: string;
  durationMs: number;
}

export const DeliveryStates = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DeliveryStates)[number];

/**
 * One event for one webhook, stored in the outbox before the first attempt. Its `id` is the
 * envelope's `id` and stays the same across retries, so receivers can de-duplicate.
 */
export interface WebhookDelivery {
  id: string;
  webhookId: string;
  url: string;
  event: WebhookEventName;
  deviceId: string;
  payload: Record<string, unknown>;
  createdAt: number;
  state: DeliveryState;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: number;
  /** Number of attempts made so far (the list below keeps only the latest few). */
  attemptCount: number;
  attempts: DeliveryAttempt[];
  lastError?: string;
  finishedAt?: number;
}

/** The outbox: a durable collection (the store's keyed collection fits it). */
export interface DeliveryOutbox {
  put(delivery: WebhookDelivery): Promise<void>;
  delete(id: string): Promise<void>;
  get(id: string): WebhookDelivery | undefined;
  values(): Iterable<WebhookDelivery>;
}

/** The JSON body a receiver gets. */
export function deliveryEnvelope(delivery: WebhookDelivery): string {
  return JSON.stringify({
    id: delivery.id,
    webhookId: delivery.webhookId,
    event: delivery.event,
    deviceId: delivery.deviceId,
    payload: delivery.payload,
  });
}
