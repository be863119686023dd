/**
 * The wall clock of an IANA time zone: what it shows at an instant, and the instant it shows a
 * given time. Every rule read "on the clock of a zone" (quotas and plan periods, the sending
 * window, opening hours) asks here. One formatter per zone, kept: building one costs far more
 * than using it, and a scheduler scan may ask many times.
 */

export interface WallClock {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  /** 0 (Sunday) to 6 (Saturday). */
  weekday: number;
  /** Minutes after local midnight, 0–1439. */
  minuteOfDay: number;
  /** Milliseconds after the start of the minute. */
  millisIntoMinute: number;
}

/** Whether `timeZone` is a zone this runtime knows (for checking what a caller sends). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** What the wall clock of `timeZone` shows at `at` (ms since the epoch). */
export function wallClockAt(timeZone: string, at: number): WallClock {
  const parts: Record<string, string> = {};
  for (const part of formatterOf(timeZone).formatToParts(at)) parts[part.type] = part.value;
  const number = (type: string, fallback: number) => {
    const value = Number(parts[type]);
    return Number.isFinite(value) ? value : fallback;
  };
  const millis = ((at % 1000) + 1000) % 1000;
  return {
    year: number('year', 1970),
    month: number('month', 1),
    day: number('day', 1),
    weekday: Math.max(0, weekdays.indexOf(parts.weekday ?? '')),
    minuteOfDay: number('hour', 0) * 60 + number('minute', 0),
    millisIntoMinute: number('second', 0) * 1000 + millis,
  };
}

/** How far the wall clock of `timeZone` is ahead of UTC at `at` (ms). */
function offsetAt(timeZone: string, at: number): number {
  const clock = wallClockAt(timeZone, at);
  const wall = Date.UTC(
    clock.year,
    clock.month - 1,
    clock.day,
    Math.floor(clock.minuteOfDay / 60),
    clock.minuteOfDay % 60,
    Math.floor(clock.millisIntoMinute / 1000),
  );
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The instant the wall clock of `timeZone` shows the given time (month and day may overflow:
 * Date.UTC carries them). A time skipped by a daylight-saving change maps to the instant after
 * the skip; one shown twice, to the first.
 */
export function wallTimeToInstant(
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

/** "09:30" → 570. The schemas have already checked the form. */
export function minutesOfClockTime(text: string): number {
  const [hours = 0, minutes = 0] = text.split(':').map(Number);
  return hours * 60 + minutes;
}
