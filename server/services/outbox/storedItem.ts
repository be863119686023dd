import type { JobKind, OutboxJob } from '../../contract/domain/outboxJob.js';

/**
 * What the retrying outbox of the versions before the one outbox kept beside each record's own
 * fields (forwarded mail, deliver_sm), in the collections `Outbox.adopt` takes over.
 */
export interface StoredItem {
  id: string;
  createdAt: number;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
}

export function jobOfStoredItem<P>(
  stored: StoredItem,
  job: { kind: JobKind; lane: string; payload: P },
): Omit<OutboxJob<P>, 'seq'> {
  return {
    id: `${job.kind}:${stored.id}`,
    ...job,
    createdAt: stored.createdAt,
    state: 'pending',
    nextAttemptAt: stored.nextAttemptAt,
    attemptCount: stored.attempts,
    attempts: [],
    ...(stored.lastError !== undefined ? { lastError: stored.lastError } : {}),
  };
}
