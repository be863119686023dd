import { wallClockAt, wallTimeToInstant } from './zonedTime.js';

/**
 * Periods that restart at a wall-clock time in a time zone: an app's daily or monthly quota
 * (auth/), a SIM plan's caps (plans/). A day restarts at `resetAt` every day, a week on
 * Monday at `resetAt`, a month on the 1st at `resetAt`, as the clock on the wall of `timeZone`
 * shows it; daylight-saving changes move the instant, not the wall time.
 */
export type PeriodKind = 'day' | 'week' | 'month';

export interface ResetRule {
  /** "HH:MM", 24-hour. */
  resetAt: string;
  /** IANA zone, e.g. "Europe/Berlin". */
  timeZone: string;
}

export interface Period {
  /** ms since the epoch, inclusive. */
  start: number;
  /** ms since the epoch, exclusive: the next reset. */
  end: number;
}

/** The period of `kind` holding `now`. */
export function periodAt(kind: PeriodKind, rule: ResetRule, now: number): Period {
  const [hour = 0, minute = 0] = rule.resetAt.split(':').map(Number);
  const local = wallClockAt(rule.timeZone, now);
  const at = (year: number, month: number, day: number) =>
    wallTimeToInstant(rule.timeZone, year, month, day, hour, minute);
  if (kind === 'month') {
    const thisMonth = at(local.year, local.month, 1);
    return now >= thisMonth
      ? { start: thisMonth, end: at(local.year, local.month + 1, 1) }
      : { start: at(local.year, local.month - 1, 1), end: thisMonth };
  }
  const sinceMonday = kind === 'week' ? (local.weekday + 6) % 7 : 0;
  const length = kind === 'week' ? 7 : 1;
  const first = local.day - sinceMonday;
  const current = at(local.year, local.month, first);
  return now >= current
    ? { start: current, end: at(local.year, local.month, first + length) }
    : { start: at(local.year, local.month, first - length), end: current };
}
