import type { Clock, TimerHandle } from '../clock/clock.js';
import { describeError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import type { SettingsService } from '../settings/settingsService.js';
import type { Storage } from '../store/storage.js';

const dayMs = 24 * 60 * 60_000;
const sweepIntervalMs = 60 * 60_000;

/**
 * Keeps the store bounded (DESIGN §4): messages and incoming messages older than
 * `messages.log_lifetime_days` (unset: kept), log entries older than `logs.lifetime_days`.
 * Runs at start and hourly; a settings change applies at the next sweep.
 */
export function startRetention(deps: {
  storage: Storage;
  settings: SettingsService;
  clock: Clock;
  logger: Logger;
}): () => void {
  const logger = deps.logger.child('retention');
  let timer: TimerHandle | undefined;
  let stopped = false;

  const sweep = async () => {
    const { messages, logs } = deps.settings.current();
    const now = deps.clock.now();
    if (messages.log_lifetime_days) {
      const before = now - messages.log_lifetime_days * dayMs;
      const removedMessages = await deps.storage.messages.pruneOlderThan(before);
      const removedIncoming = await deps.storage.inbox.pruneOlderThan(before);
      if (removedMessages + removedIncoming > 0) {
        logger.info(
          `removed ${removedMessages} messages and ${removedIncoming} incoming messages past their lifetime`,
        );
      }
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
