/** What becomes of users' regular expressions (run on the pattern thread, server/services/patterns/). */

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

/**
 * What became of a rule's regular expression on a text, when not a plain match or no match.
 * 'timed-out': it ran out of the message's time (on an incoming SMS it is then disabled);
 * 'not-run': the rules before it used the time up; 'disabled': it timed out before and is off.
 */
export const RulePatternStates = ['timed-out', 'not-run', 'disabled'] as const;
export type RulePatternState = (typeof RulePatternStates)[number];
