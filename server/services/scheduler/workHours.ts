import { wallClockAt } from '../../clock/zonedTime.js';

/**
 * The daily sending window of `messages.work_hours_*` (server spec, client-go and client-rs
 * `SettingsMessages`): from `start` up to, not including, `end`, in the gateway computer's time
 * zone. A start after the end spans midnight (22:00–06:00); equal ends leave the whole day open.
 */
export interface WorkHours {
  /** Minutes after local midnight. */
  startMinute: number;
  endMinute: number;
  /** IANA zone the times are read in, e.g. "Europe/Berlin". */
  timeZone: string;
}

const MINUTES_PER_DAY = 24 * 60;
const MINUTE_MS = 60_000;

/** `now` when a message may be sent at `now`; otherwise the instant the window next opens. */
export function workHoursOpenAt(hours: WorkHours, now: number): number {
  const local = localTimeOfDay(hours.timeZone, now);
  if (isInside(hours, local.minute)) return now;
  const minutesToStart = (hours.startMinute - local.minute + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  // Never `now`: a closed window has its start at least a minute ahead.
  const byCount = now - local.millisIntoMinute + minutesToStart * MINUTE_MS;
  // A daylight-saving change between now and then moves the wall clock by the difference:
  // correct once, so the wake-up lands on the start as the wall clock shows it. When the start
  // does not exist that day (skipped by the change), the counted instant is inside the window.
  const drift = signedMinutes(hours.startMinute - localTimeOfDay(hours.timeZone, byCount).minute);
  const onTheWallClock = byCount + drift * MINUTE_MS;
  const corrected =
    onTheWallClock > now && isInside(hours, localTimeOfDay(hours.timeZone, onTheWallClock).minute);
  return corrected ? onTheWallClock : byCount;
}

function isInside(hours: WorkHours, minute: number): boolean {
  const { startMinute: start, endMinute: end } = hours;
  if (start === end) return true;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** −720…720: the shorter way round the clock face. */
function signedMinutes(difference: number): number {
  const wrapped = ((difference % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return wrapped > MINUTES_PER_DAY / 2 ? wrapped - MINUTES_PER_DAY : wrapped;
}

function localTimeOfDay(timeZone: string, at: number): { minute: number; millisIntoMinute: number } {
  const clock = wallClockAt(timeZone, at);
  return { minute: clock.minuteOfDay, millisIntoMinute: clock.millisIntoMinute };
}
