import { z } from 'zod';
import { PatternDisabledReasons } from '../domain/userPatterns.js';

/** As the API shows it beside the pattern. */
export const patternDisabledViewSchema = z.object({
  reason: z.enum(PatternDisabledReasons),
  at: z.string(),
});
