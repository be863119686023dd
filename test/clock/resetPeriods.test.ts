import { describe, expect, it } from 'vitest';
import { periodAt } from '../../server/clock/resetPeriods.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('reset periods', () => {
  it.each([
    // [kind, resetAt, zone, now, start, end]
    ['day', '00:00', 'UTC', '2026-03-10T12:00:00Z', '2026-03-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z'],
    ['day', '06:00', 'UTC', '2026-03-10T05:59:00Z', '2026-03-09T06:00:00.000Z', '2026-03-10T06:00:00.000Z'],
    [
      'day',
      '00:00',
      'Europe/Berlin',
      '2026-03-10T23:30:00Z',
      '2026-03-10T23:00:00.000Z',
      '2026-03-11T23:00:00.000Z',
    ],
    // Berlin moves to summer time on 29 March 2026: that day has 23 hours.
    [
      'day',
      '00:00',
      'Europe/Berlin',
      '2026-03-29T12:00:00Z',
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ],
    ['week', '00:00', 'UTC', '2026-03-11T08:00:00Z', '2026-03-09T00:00:00.000Z', '2026-03-16T00:00:00.000Z'],
    ['month', '00:00', 'UTC', '2026-03-31T23:59:00Z', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    [
      'month',
      '08:00',
      'America/New_York',
      '2026-01-01T10:00:00Z',
      '2025-12-01T13:00:00.000Z',
      '2026-01-01T13:00:00.000Z',
    ],
  ] as const)(
    'a %s resetting at %s in %s holding %s runs %s → %s',
    (kind, resetAt, timeZone, now, start, end) => {
      const period = periodAt(kind, { resetAt, timeZone }, Date.parse(now));
      expect({ start: iso(period.start), end: iso(period.end) }).toEqual({ start, end });
    },
  );
});
