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
  const local = wallDate(rule.timeZone, now);
  const at = (year: number, month: number, day: number) =>
    wallTimeToInstant(rule.timeZone, year, month, day, hour, minute);
  if (kind === 'month') {
    const thisMonth = at(local.year, local.month, 1);
    return now >= thisMonth
      ? { start: thisMonth, end: at(local.year, local.month + 1, 1) }
      : { start: at(local.year, local.month - 1, 1), end: thisMonth };
  }
  // Days since Monday of the local date (Date.UTC's weekday of a wall date is that date's).
  const sinceMonday =
    kind === 'week' ? (new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay() + 6) % 7 : 0;
  const length = kind === 'week' ? 7 : 1;
  const first = local.day - sinceMonday;
  const current = at(local.year, local.month, first);
  return now >= current
    ? { start: current, end: at(local.year, local.month, first + length) }
    : { start: at(local.year, local.month, first - length), end: current };
}

/** Whether `timeZone` is a zone this runtime knows (for validating what a caller sends). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsAt(timeZone: string, at: number): Record<string, number> {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(at)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return parts;
}

function wallDate(timeZone: string, at: number): { year: number; month: number; day: number } {
  const parts = partsAt(timeZone, at);
  return { year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1 };
}

/** How far the wall clock of `timeZone` is ahead of UTC at `at` (ms). */
function offsetAt(timeZone: string, at: number): number {
  const p = partsAt(timeZone, at);
  const wall = Date.UTC(
    p.year ?? 1970,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    p.hour ?? 0,
    p.minute ?? 0,
    p.second ?? 0,
  );
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The instant the wall clock of `timeZone` shows the given time (month and day may overflow:
 * Date.UTC carries them). A time skipped by a daylight-saving change maps to the instant after
 * the skip; one shown twice, to the first.
 */
function wallTimeToInstant(
  timeZone: string,
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const first = asUtc - offsetAt(timeZone, asUtc);
  const second = asUtc - offsetAt(timeZone, first);
  return Math.min(first, second);
}
