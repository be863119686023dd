/**
 * Dates and durations as staff read them: `2026-11-22 14:05:09` (unambiguous in every locale),
 * "3 min ago", "in 40 s". The zone is a parameter so tests do not depend on the machine's.
 */

export type Zone = 'local' | 'utc';

export function toEpochMs(value: string | number | Date): number {
  if (value instanceof Date) return value.getTime();
  return typeof value === 'number' ? value : Date.parse(value);
}

function parts(ms: number, zone: Zone) {
  const date = new Date(ms);
  return zone === 'utc'
    ? [
        date.getUTCFullYear(),
        date.getUTCMonth() + 1,
        date.getUTCDate(),
        date.getUTCHours(),
        date.getUTCMinutes(),
        date.getUTCSeconds(),
      ]
    : [
        date.getFullYear(),
        date.getMonth() + 1,
        date.getDate(),
        date.getHours(),
        date.getMinutes(),
        date.getSeconds(),
      ];
}

const two = (value: number | undefined) => String(value ?? 0).padStart(2, '0');

export function formatDateTime(
  value: string | number | Date | undefined | null,
  zone: Zone = 'local',
): string {
  if (value === undefined || value === null || value === '') return '—';
  const ms = toEpochMs(value);
  if (Number.isNaN(ms)) return '—';
  const [year, month, day, hour, minute, second] = parts(ms, zone);
  return `${year}-${two(month)}-${two(day)} ${two(hour)}:${two(minute)}:${two(second)}`;
}

export function formatTime(value: string | number | Date, zone: Zone = 'local'): string {
  const ms = toEpochMs(value);
  if (Number.isNaN(ms)) return '—';
  const [, , , hour, minute, second] = parts(ms, zone);
  return `${two(hour)}:${two(minute)}:${two(second)}`;
}

/** "45 s", "3 min", "2 h 5 min", "3 d 4 h". */
export function formatDuration(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

export function formatRelative(value: string | number | Date | undefined | null, nowMs: number): string {
  if (value === undefined || value === null || value === '') return '—';
  const ms = toEpochMs(value);
  if (Number.isNaN(ms)) return '—';
  const delta = ms - nowMs;
  if (Math.abs(delta) < 5000) return 'just now';
  return delta < 0 ? `${formatDuration(delta)} ago` : `in ${formatDuration(delta)}`;
}

/** The value of a `<input type="datetime-local">` as an ISO instant (local zone), or undefined. */
export function localInputToIso(value: string): string | undefined {
  if (value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** `2026-11-22 14:05`, `2026-11-22T14:05` or `2026-11-22` → `2026-11-22T14:05`; '' stays ''. */
export function localInputOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}))?$/.exec(trimmed);
  if (!match) return undefined;
  const local = `${match[1]}T${match[2] ?? '00:00'}`;
  return Number.isNaN(Date.parse(local)) ? undefined : local;
}

/** YYYY-MM-DD of an epoch, for the chart's day labels and file names. */
export function isoDay(ms: number, zone: Zone = 'local'): string {
  const [year, month, day] = parts(ms, zone);
  return `${year}-${two(month)}-${two(day)}`;
}
