import type { EventCounts } from '../../store/eventCounts.js';

export interface DailyCount {
  /** Local calendar date, YYYY-MM-DD. */
  date: string;
  sent: number;
  delivered: number;
  failed: number;
  received: number;
}

const dayMs = 24 * 60 * 60_000;

/**
 * Per-day counts for the dashboard chart: a message counts on the day it first reached Sent or
 * Delivered, and as failed on the day its first recipient failed (also when it stays Sent, its
 * other recipients sent); an incoming message on the day it arrived. Days are local to the PC. The
 * store keeps the counts per quarter hour as messages change, so this never reads the history.
 */
export function dailyStats(counts: EventCounts, now: number, days: number): DailyCount[] {
  const today = startOfLocalDay(now);
  const first = today - (days - 1) * dayMs;
  const byDate = new Map<string, DailyCount>();
  for (let index = 0; index < days; index++) {
    const date = localDate(first + index * dayMs + dayMs / 2);
    byDate.set(date, { date, sent: 0, delivered: 0, failed: 0, received: 0 });
  }
  for (const { at, event, count } of counts.since(first)) {
    const day = byDate.get(localDate(at));
    if (day) day[event] += count;
  }
  return [...byDate.values()];
}

function startOfLocalDay(epochMs: number): number {
  const date = new Date(epochMs);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

function localDate(epochMs: number): string {
  const date = new Date(epochMs);
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}
