import type { Clock, TimerHandle } from '../clock/clock.js';
import { describeError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import type { InboxRepository, LogRepository, MessageRepository } from './repositories.js';

const dayMs = 24 * 60 * 60_000;
const sweepIntervalMs = 60 * 60_000;

/** The stores retention trims: each removes its rows older than a time. */
export interface RetainedStores {
  messages: Pick<MessageRepository, 'pruneOlderThan'>;
  inbox: Pick<InboxRepository, 'pruneOlderThan'>;
  logs: Pick<LogRepository, 'pruneOlderThan'>;
}

/** The lifetime settings read at each sweep, in days (null or absent: kept). */
export interface LifetimeSettings {
  messages: { log_lifetime_days?: number | null };
  incoming: { lifetime_days?: number | null };
  logs: { lifetime_days?: number | null };
}

/**
 * Keeps the store bounded (docs/decisions.md#storage): sent messages older than `messages.log_lifetime_days`,
 * received ones older than `incoming.lifetime_days` (either unset: kept), log entries older than
 * `logs.lifetime_days`. Runs at start and hourly; a settings change applies at the next sweep.
 */
export function startRetention(deps: {
  storage: RetainedStores;
  settings: { current(): LifetimeSettings };
  clock: Clock;
  logger: Logger;
}): () => void {
  const logger = deps.logger.child('retention');
  let timer: TimerHandle | undefined;
  let stopped = false;

  const sweep = async () => {
    const { messages, incoming, logs } = deps.settings.current();
    const now = deps.clock.now();
    if (messages.log_lifetime_days) {
      const removed = await deps.storage.messages.pruneOlderThan(now - messages.log_lifetime_days * dayMs);
      if (removed > 0) logger.info(`removed ${removed} messages past their lifetime`);
    }
    if (incoming.lifetime_days) {
      const removed = await deps.storage.inbox.pruneOlderThan(now - incoming.lifetime_days * dayMs);
      if (removed > 0) logger.info(`removed ${removed} incoming messages past their lifetime`);
    }
    if (logs.lifetime_days) await deps.storage.logs.pruneOlderThan(now - logs.lifetime_days * dayMs);
  };

  const schedule = (delayMs: number) => {
    timer = deps.clock.setTimer(() => {
      if (stopped) return;
      sweep()
        .catch((error) => logger.warn('retention sweep failed', { error: describeError(error) }))
        .finally(() => {
          if (!stopped) schedule(sweepIntervalMs);
        });
    }, delayMs);
  };
  schedule(0);
  return () => {
    stopped = true;
    timer?.cancel();
  };
}
