import type { Clock, TimerHandle } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import type { KeyedCollection } from '../store/keyedCollection.js';
import { retryDelayMs } from '../webhooks/retryPolicy.js';

/** What every kept delivery carries beside its own fields. */
export interface OutboxItem {
  id: string;
  createdAt: number;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
}

/** An attempt's outcome: delivered, nobody to take it now (wait for `pump`), or failed. */
export type AttemptOutcome = { kind: 'done' } | { kind: 'no-taker' } | { kind: 'failed'; error: string };

export interface RetryingOutboxDeps<T extends OutboxItem> {
  store: KeyedCollection<T>;
  attempt(item: T): Promise<AttemptOutcome>;
  /** After this many failed attempts an item is dropped (and logged). */
  maxAttempts: number;
  clock: Clock;
  logger: Logger;
}

/**
 * Deliveries the gateway owes someone outside (SMPP deliver_sm, forwarded e-mail): kept in the
 * store from the commit of the fact that owes them (`hold` inside `EventBus.onRecord`), tried
 * oldest first, retried with the webhooks' back-off, and resumed after a restart.
 */
export class RetryingOutbox<T extends OutboxItem> {
  private readonly inFlight = new Set<string>();
  private timer?: TimerHandle;
  private stopped = false;

  constructor(private readonly deps: RetryingOutboxDeps<T>) {}

  /** Writes the item in the caller's open batch; tries it once that batch is durable. */
  hold(item: T): void {
    void this.deps.store.put(item).then(
      () => this.pump(),
      (error: unknown) =>
        this.deps.logger.error('a delivery could not be kept', { id: item.id, error: String(error) }),
    );
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  /** Tries every item that is due; call it too when a taker appears (a receiver binds). */
  pump(): void {
    if (this.stopped) return;
    this.timer?.cancel();
    this.timer = undefined;
    const now = this.deps.clock.now();
    let nextDue = Number.POSITIVE_INFINITY;
    const items = [...this.deps.store.values()].sort((a, b) => a.createdAt - b.createdAt);
    for (const item of items) {
      if (this.inFlight.has(item.id)) continue;
      if (item.nextAttemptAt > now) nextDue = Math.min(nextDue, item.nextAttemptAt);
      else void this.run(item);
    }
    if (nextDue !== Number.POSITIVE_INFINITY)
      this.timer = this.deps.clock.setTimer(() => this.pump(), nextDue - now);
  }

  private async run(item: T): Promise<void> {
    this.inFlight.add(item.id);
    let pumpAgain = false;
    try {
      const outcome = await this.deps.attempt(item).catch(
        (error: unknown): AttemptOutcome => ({
          kind: 'failed',
          error: error instanceof Error ? error.message : String(error),
        }),
      );
      if (outcome.kind === 'done') {
        await this.deps.store.delete(item.id);
        pumpAgain = true;
      } else if (outcome.kind === 'failed') {
        const attempts = item.attempts + 1;
        if (attempts >= this.deps.maxAttempts) {
          this.deps.logger.error('a delivery failed for good', {
            id: item.id,
            attempts,
            error: outcome.error,
          });
          await this.deps.store.delete(item.id);
        } else {
          this.deps.logger.warn('a delivery failed; retrying later', {
            id: item.id,
            attempts,
            error: outcome.error,
          });
          await this.deps.store.put({
            ...item,
            attempts,
            lastError: outcome.error,
            nextAttemptAt: this.deps.clock.now() + retryDelayMs(attempts),
          });
          pumpAgain = true;
        }
      }
    } finally {
      this.inFlight.delete(item.id);
    }
    if (pumpAgain) this.pump();
  }
}
