import type { JobAttempt, JobState, OutboxJob } from '../../contract/domain/outboxJob.js';
import type { WebhookEventName } from '../../contract/domain/webhookEvents.js';

/** A registered webhook as the dispatcher needs it (the registry owns the records). */
export interface WebhookTarget {
  id: string;
  url: string;
  event: string;
  deviceId?: string;
  /** The app that registered it (auth/appDirectory.ts); absent: the default app. */
  appId?: string;
}

/** One attempt; `status` is the HTTP status when the receiver answered. */
export type DeliveryAttempt = JobAttempt;
export type DeliveryState = JobState;

/** What a webhook job carries (outbox/outboxJob.ts); its lane is the webhook. */
export interface WebhookJobPayload {
  webhookId: string;
  url: string;
  event: WebhookEventName;
  deviceId: string;
  payload: Record<string, unknown>;
}

/**
 * One event for one webhook as the API shows it: a job of the outbox. Its `id` is the
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

export function deliveryOf(job: OutboxJob<WebhookJobPayload>): WebhookDelivery {
  return {
    id: job.id,
    ...job.payload,
    createdAt: job.createdAt,
    state: job.state,
    nextAttemptAt: job.nextAttemptAt,
    attemptCount: job.attemptCount,
    attempts: job.attempts,
    ...(job.lastError !== undefined ? { lastError: job.lastError } : {}),
    ...(job.finishedAt !== undefined ? { finishedAt: job.finishedAt } : {}),
  };
}

/** A delivery kept in the `webhook-outbox` collection, as a job (`Outbox.adopt`). */
export function jobOfStoredDelivery(delivery: WebhookDelivery): Omit<OutboxJob<WebhookJobPayload>, 'seq'> {
  const { id, webhookId, url, event, deviceId, payload, ...lifecycle } = delivery;
  return {
    id,
    kind: 'webhook',
    lane: webhookId,
    payload: { webhookId, url, event, deviceId, payload },
    ...lifecycle,
  };
}

/** The JSON body a receiver gets. */
export function deliveryEnvelope(id: string, delivery: WebhookJobPayload): string {
  return JSON.stringify({
    id,
    webhookId: delivery.webhookId,
    event: delivery.event,
    deviceId: delivery.deviceId,
    payload: delivery.payload,
  });
}
