import { type LogLevel, levelRank } from '../../../server/contract/domain/logLevels.js';
import type { LogRecord } from '../api/types.js';
import { toEpochMs } from '../format/timeFormat.js';

/** Pure rules of the log tail: level threshold, module filter, a bounded buffer, oldest first. */

export interface LogFilter {
  /** Show this level and above. */
  minPriority: LogLevel;
  /** Exact module name, or '' for all. */
  module: string;
  text: string;
}

export function passesLogFilter(record: LogRecord, filter: LogFilter): boolean {
  if (levelRank(record.priority) < levelRank(filter.minPriority)) return false;
  if (filter.module && record.module !== filter.module) return false;
  const text = filter.text.trim().toLowerCase();
  return !text || `${record.module} ${record.message}`.toLowerCase().includes(text);
}

/** Appends in time order and keeps the newest `cap` entries (the tail must not grow forever). */
export function appendToTail(
  tail: readonly LogRecord[],
  incoming: readonly LogRecord[],
  cap: number,
): LogRecord[] {
  const merged = [...tail, ...incoming];
  return merged.length > cap ? merged.slice(merged.length - cap) : merged;
}

/** GET /logs returns newest first on some builds; the tail shows oldest first, newest at the bottom. */
export function oldestFirst(records: readonly LogRecord[]): LogRecord[] {
  return [...records].sort((a, b) => toEpochMs(a.createdAt) - toEpochMs(b.createdAt));
}

export function moduleNames(records: readonly LogRecord[]): string[] {
  return [...new Set(records.map((record) => record.module))].sort();
}

/**
 * The first page of history arrives after the live stream may already have delivered entries
 * that the history also holds; live entries not newer than the last historic one are dropped.
 */
export function mergeHistory(
  history: readonly LogRecord[],
  live: readonly LogRecord[],
  cap: number,
): LogRecord[] {
  const ordered = oldestFirst(history);
  const last = ordered.at(-1);
  const lastMs = last === undefined ? Number.NEGATIVE_INFINITY : toEpochMs(last.createdAt);
  return appendToTail(
    ordered,
    live.filter((record) => toEpochMs(record.createdAt) > lastMs),
    cap,
  );
}
