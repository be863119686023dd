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

/** "09:30" → 570. The settings schema has already checked the form. */
export function minutesOfClockTime(text: string): number {
  const [hours = 0, minutes = 0] = text.split(':').map(Number);
  return hours * 60 + minutes;
}

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

/** Building a DateTimeFormat costs far more than using one; a scan may ask many times. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function localTimeOfDay(timeZone: string, at: number): { minute: number; millisIntoMinute: number } {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of format.formatToParts(at)) {
    if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
    else if (part.type === 'second') second = Number(part.value);
  }
  const millis = ((at % 1000) + 1000) % 1000;
  return { minute: hour * 60 + minute, millisIntoMinute: second * 1000 + millis };
}
