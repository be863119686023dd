import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  formatDuration,
  formatRelative,
  formatTime,
  isoDay,
} from '../../renderer/src/format/timeFormat.js';

const instant = Date.UTC(2026, 10, 22, 14, 5, 9);

describe('time formatting', () => {
  it('writes date and time as YYYY-MM-DD HH:MM:SS', () => {
    expect(formatDateTime(instant, 'utc')).toBe('2026-11-22 14:05:09');
    expect(formatDateTime('2026-11-22T16:05:09.123+02:00', 'utc')).toBe('2026-11-22 14:05:09');
    expect(formatTime(instant, 'utc')).toBe('14:05:09');
    expect(isoDay(instant, 'utc')).toBe('2026-11-22');
  });

  it('shows a dash for missing or unreadable times', () => {
    expect(formatDateTime(undefined)).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
    expect(formatRelative(null, instant)).toBe('—');
  });

  it.each([
    [45_000, '45 s'],
    [180_000, '3 min'],
    [2 * 3600_000, '2 h'],
    [2 * 3600_000 + 5 * 60_000, '2 h 5 min'],
    [3 * 86_400_000 + 4 * 3600_000, '3 d 4 h'],
  ])('writes %i ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('says how long ago or how soon', () => {
    expect(formatRelative(instant - 180_000, instant)).toBe('3 min ago');
    expect(formatRelative(instant + 40_000, instant)).toBe('in 40 s');
    expect(formatRelative(instant - 2000, instant)).toBe('just now');
  });
});
