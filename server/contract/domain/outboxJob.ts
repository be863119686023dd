/** Who a kept delivery goes to: each kind has one handler (`Outbox.serve`). */
export const JobKinds = ['webhook', 'mail', 'smpp', 'fleet-report'] as const;
export type JobKind = (typeof JobKinds)[number];

export const JobStates = ['pending', 'delivered', 'failed'] as const;
export type JobState = (typeof JobStates)[number];

export interface JobAttempt {
  at: number;
  /** The receiver's status code when it answered (HTTP status, deliver_sm_resp status). */
  status?: number;
  error?: string;
  durationMs: number;
}

/**
 * One delivery the gateway owes someone outside, kept from the commit of the fact that owes it
 * until it is delivered or given up, then kept a while as history. Every kind (a webhook, a
 * forwarded mail, an SMPP deliver_sm, a report to the private server) has this one lifecycle.
 */
export interface OutboxJob<P = unknown> {
  id: string;
  kind: JobKind;
  /**
   * Jobs of one lane are tried oldest first; lanes never wait for each other (one webhook,
   * one SMPP login, the one private server).
   */
  lane: string;
  /** The order jobs were kept in (createdAt can repeat, and a clock can step back). */
  seq: number;
  payload: P;
  createdAt: number;
  state: JobState;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: number;
  /** Attempts made so far (the list below keeps only the latest few). */
  attemptCount: number;
  attempts: JobAttempt[];
  lastError?: string;
  finishedAt?: number;
}

/** What a way out is asked to keep: the outbox adds the lifecycle. */
export interface NewJob<P> {
  /** Given when the fact has one, so the same fact kept twice is one job. */
  id?: string;
  kind: JobKind;
  lane: string;
  payload: P;
}

/**
 * An attempt's outcome. `wait`: nothing was tried (no receiver bound, no network, a rejected
 * token) — not counted; tried again at `retryAt`, or when the kind is woken (`Outbox.wake`) or
 * gets a new job. `final`: trying again cannot help (a malformed report, a removed webhook).
 */
export type AttemptOutcome =
  | { kind: 'done'; status?: number }
  | { kind: 'wait'; reason: string; retryAt?: number }
  | { kind: 'failed'; error: string; status?: number; final?: boolean };

/** What waits of one kind, and what was given up in the last hour (GET /gateway/v1/status). */
export interface KindStatus {
  pending: number;
  oldestPendingAt?: number;
  givenUpLastHour: number;
}
