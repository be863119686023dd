import type { z } from 'zod';
import type { patternDisabledViewSchema } from '../../../server/contract/schemas/patternSchemas.js';
import { formatDateTime } from './timeFormat.js';

export type PatternDisabledView = z.output<typeof patternDisabledViewSchema>;

/** Why a balance or rule pattern is no longer run, in the words the forms show beside it. */
export function patternDisabledText(disabled: PatternDisabledView): string {
  switch (disabled.reason) {
    case 'timed-out':
      return `Switched off since ${formatDateTime(disabled.at)}: it ran out of time on a text and would again. Change the pattern to use it again.`;
  }
}
