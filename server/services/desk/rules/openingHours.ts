import type { z } from 'zod';
import { minutesOfClockTime, wallClockAt } from '../../../clock/zonedTime.js';
import type { openingHoursSchema } from '../../../contract/schemas/deskSchemas.js';

export type OpeningHours = z.output<typeof openingHoursSchema>;

/**
 * Whether `at` falls inside one of the weekly open periods, on the clock of `timeZone`. A
 * period whose end is before its start runs past midnight (a bar open 18:00–02:00): it is open
 * from the start on its days, and up to the end on the mornings after them.
 */
export function isOpen(hours: OpeningHours, at: number): boolean {
  const clock = wallClockAt(hours.timeZone, at);
  const yesterday = (clock.weekday + 6) % 7;
  return hours.periods.some((period) => {
    const from = minutesOfClockTime(period.from);
    const to = minutesOfClockTime(period.to);
    if (from < to)
      return period.days.includes(clock.weekday) && clock.minuteOfDay >= from && clock.minuteOfDay < to;
    return (
      (period.days.includes(clock.weekday) && clock.minuteOfDay >= from) ||
      (period.days.includes(yesterday) && clock.minuteOfDay < to)
    );
  });
}
