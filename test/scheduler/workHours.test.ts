import { describe, expect, it } from 'vitest';
import { minutesOfClockTime } from '../../server/clock/zonedTime.js';
import { type WorkHours, workHoursOpenAt } from '../../server/services/scheduler/workHours.js';

const hours = (start: string, end: string, timeZone = 'UTC'): WorkHours => ({
  startMinute: minutesOfClockTime(start),
  endMinute: minutesOfClockTime(end),
  timeZone,
});
const at = (iso: string) => Date.parse(iso);

describe('working hours', () => {
  it('are open from the start up to, not including, the end', () => {
    const window = hours('09:00', '17:00');
    expect(workHoursOpenAt(window, at('2026-11-25T09:00:00Z'))).toBe(at('2026-11-25T09:00:00Z'));
    expect(workHoursOpenAt(window, at('2026-11-25T16:59:59Z'))).toBe(at('2026-11-25T16:59:59Z'));
    expect(workHoursOpenAt(window, at('2026-11-25T17:00:00Z'))).toBe(at('2026-11-26T09:00:00Z'));
  });

  it('open later the same day before the start, to the millisecond', () => {
    expect(workHoursOpenAt(hours('09:30', '17:00'), at('2026-11-25T06:12:34.567Z'))).toBe(
      at('2026-11-25T09:30:00Z'),
    );
  });

  it('span midnight when the start is after the end', () => {
    const night = hours('22:00', '06:00');
    expect(workHoursOpenAt(night, at('2026-11-25T23:30:00Z'))).toBe(at('2026-11-25T23:30:00Z'));
    expect(workHoursOpenAt(night, at('2026-11-26T05:59:00Z'))).toBe(at('2026-11-26T05:59:00Z'));
    expect(workHoursOpenAt(night, at('2026-11-26T06:00:00Z'))).toBe(at('2026-11-26T22:00:00Z'));
  });

  it('leave the whole day open when start and end are equal', () => {
    expect(workHoursOpenAt(hours('08:00', '08:00'), at('2026-11-25T03:00:00Z'))).toBe(
      at('2026-11-25T03:00:00Z'),
    );
  });

  it('are read on the wall clock of their time zone', () => {
    // 08:30 UTC is 09:30 in Berlin in winter (UTC+1): inside 09:00–17:00 there, not in UTC.
    expect(workHoursOpenAt(hours('09:00', '17:00', 'Europe/Berlin'), at('2026-11-25T08:30:00Z'))).toBe(
      at('2026-11-25T08:30:00Z'),
    );
    expect(workHoursOpenAt(hours('09:00', '17:00', 'Europe/Berlin'), at('2026-11-25T07:30:00Z'))).toBe(
      at('2026-11-25T08:00:00Z'),
    );
  });

  it('open at the wall-clock start across a daylight-saving change', () => {
    // Berlin moves from UTC+1 to UTC+2 in the night of 2026-03-29: 09:00 that day is 07:00 UTC.
    expect(workHoursOpenAt(hours('09:00', '17:00', 'Europe/Berlin'), at('2026-03-28T20:00:00Z'))).toBe(
      at('2026-03-29T07:00:00Z'),
    );
    // And back on 2026-10-25: 09:00 that day is 08:00 UTC.
    expect(workHoursOpenAt(hours('09:00', '17:00', 'Europe/Berlin'), at('2026-10-24T20:00:00Z'))).toBe(
      at('2026-10-25T08:00:00Z'),
    );
  });

  it('open inside the window when its start is skipped by the change', () => {
    // 02:30 does not exist in Berlin on 2026-03-29 (02:00 CET jumps to 03:00 CEST).
    const opensAt = workHoursOpenAt(hours('02:30', '05:00', 'Europe/Berlin'), at('2026-03-29T00:00:00Z'));
    expect(opensAt).toBeGreaterThan(at('2026-03-29T00:00:00Z'));
    expect(opensAt).toBeLessThanOrEqual(at('2026-03-29T01:30:00Z'));
    expect(workHoursOpenAt(hours('02:30', '05:00', 'Europe/Berlin'), opensAt)).toBe(opensAt);
  });
});
