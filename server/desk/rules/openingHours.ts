import type { z } from 'zod';
import type { openingHoursSchema } from '../../schemas/deskSchemas.js';

export type OpeningHours = z.output<typeof openingHoursSchema>;

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Whether `at` falls inside one of the weekly open periods, on the clock of `timeZone`. */
export function isOpen(hours: OpeningHours, at: number): boolean {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: hours.timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  const day = weekdays.indexOf(part('weekday'));
  const time = `${part('hour')}:${part('minute')}`;
  return hours.periods.some((period) => period.days.includes(day) && time >= period.from && time < period.to);
}
