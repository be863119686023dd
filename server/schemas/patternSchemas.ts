import { z } from 'zod';

/**
 * Why a user's regular expression (a balance pattern, a rule's) is no longer run, until its
 * text is changed. 'timed-out': it ran out of its time on a text, and would again on the next.
 */
export const PatternDisabledReasons = ['timed-out'] as const;
export type PatternDisabledReason = (typeof PatternDisabledReasons)[number];

/** As stored beside the pattern. */
export interface PatternDisabled {
  reason: PatternDisabledReason;
  at: number;
}

/** As the API shows it beside the pattern. */
export const patternDisabledViewSchema = z.object({
  reason: z.enum(PatternDisabledReasons),
  at: z.string(),
});
