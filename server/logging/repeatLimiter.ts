import type { LogLevel } from '../contract/domain/logLevels.js';
import type { LogRecord, LogSink } from './logger.js';

export interface RepeatLimitOptions {
  /** Warnings or errors of one kind (level, module, message) let through per window. Default 20. */
  limit?: number;
  /** Default 60 000 ms. */
  windowMs?: number;
}

const limitedLevels: ReadonlySet<LogLevel> = new Set(['WARN', 'ERROR']);

interface RepeatWindow {
  startedAt: number;
  passed: number;
  suppressed: number;
  first: LogRecord;
}

/**
 * Passes at most `limit` warnings and errors of one kind per window on to `sinks`; the rest
 * are counted, and one record says how many once the window is over. A modem that sends
 * garbage, or a SIM that refuses every send, must not flood the log store and the console,
 * while the first records of each kind still say what is going on. DEBUG and INFO pass as they
 * are: raw traffic and per-message records are asked for, not symptoms.
 */
export function limitRepeats(sinks: readonly LogSink[], options: RepeatLimitOptions = {}): LogSink {
  const limit = options.limit ?? 20;
  const windowMs = options.windowMs ?? 60_000;
  const windows = new Map<string, RepeatWindow>();
  let lastSweepAt = Number.NEGATIVE_INFINITY;

  const deliver = (record: LogRecord) => {
    for (const sink of sinks) sink(record);
  };

  /** Ends the windows that are over; at most once a second, so DEBUG floods stay cheap. */
  const sweep = (now: number) => {
    if (now - lastSweepAt < 1_000) return;
    lastSweepAt = now;
    for (const [key, window] of windows) {
      if (now - window.startedAt < windowMs) continue;
      windows.delete(key);
      if (window.suppressed === 0) continue;
      deliver({
        priority: window.first.priority,
        module: window.first.module,
        message: `${window.first.message} (${window.suppressed} more like this in ${Math.round(windowMs / 1000)} s, not logged)`,
        createdAt: now,
      });
    }
  };

  return (record) => {
    sweep(record.createdAt);
    if (!limitedLevels.has(record.priority)) {
      deliver(record);
      return;
    }
    const key = `${record.priority}\u0000${record.module}\u0000${record.message}`;
    let window = windows.get(key);
    if (!window) {
      window = { startedAt: record.createdAt, passed: 0, suppressed: 0, first: record };
      windows.set(key, window);
    }
    if (window.passed < limit) {
      window.passed++;
      deliver(record);
    } else {
      window.suppressed++;
    }
  };
}
