import type { Clock } from '../clock/clock.js';
import type { GatewayOptions } from '../config/options.js';
import { consoleSink, createLogger, type Logger, type LogSink } from '../logging/logger.js';
import { limitRepeats } from '../logging/repeatLimiter.js';
import type { EventBus } from '../services/events/eventBus.js';
import type { LogRepository } from '../store/repositories.js';

export interface GatewayLogging {
  logger: Logger;
  /** From now on records are kept in the store too (GET /logs); before it opens they are not. */
  keepIn(logs: LogRepository): void;
}

/**
 * The one logger. Records go to the host's sinks (default: the console), the store once
 * it is open, and the live stream; repeated warnings are limited before any of them.
 */
export function createGatewayLogging(deps: {
  options: Pick<GatewayOptions, 'logLevel' | 'moduleLogLevels'>;
  sinks: LogSink[] | undefined;
  events: EventBus;
  clock: Clock;
}): GatewayLogging {
  let storedLogs: LogRepository | undefined;
  const logger = createLogger({
    level: deps.options.logLevel,
    moduleLevels: deps.options.moduleLogLevels,
    now: () => deps.clock.now(),
    sinks: [
      limitRepeats([
        ...(deps.sinks ?? [consoleSink()]),
        (record) => storedLogs?.append(record),
        (record) => deps.events.emit('log', record),
      ]),
    ],
  });
  return {
    logger,
    keepIn: (logs) => {
      storedLogs = logs;
    },
  };
}
