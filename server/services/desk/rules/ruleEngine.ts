import type { RulePatternState } from '../../../contract/domain/userPatterns.js';
import type { PatternMatching, PatternOutcome } from '../../patterns/patternMatcher.js';
import { isOpen } from './openingHours.js';
import type { AutoReplyRule } from './ruleBook.js';
import { matchText, ruleRegexFlags } from './textMatch.js';

/**
 * The time every rule's regular expression on one message may take together. Sane patterns end
 * in a blink on an SMS; this bounds what one that backtracks without end costs each message.
 */
export const ruleBudgetMs = 250;

/** An incoming SMS as the rules see it. */
export interface RuleSubject {
  text: string;
  sender: string;
  deviceId: string;
  at: number;
}

/** What one rule made of a subject, in words the UI's tester shows. */
export interface RuleVerdict {
  ruleId: string;
  name: string;
  /** Every condition held and the text matched: the rule acts (unless loop protection holds it). */
  applies: boolean;
  reason: string;
  /** Set when its regular expression did not give an answer. */
  patternState?: RulePatternState;
}

type Judged = Omit<RuleVerdict, 'ruleId' | 'name'>;

/**
 * Every rule's verdict, in evaluation order. The rules' regular expressions run together on the
 * pattern thread within `ruleBudgetMs`; nothing else waits for a thread. Acting, and disabling
 * a pattern that timed out, is `IncomingDesk`'s job: the tester only reports.
 */
export async function judgeRules(
  rules: readonly AutoReplyRule[],
  subject: RuleSubject,
  patterns: PatternMatching,
): Promise<RuleVerdict[]> {
  const judged = rules.map((rule) => judgeWithoutRegex(rule, subject));
  const regexRules = rules.filter((_rule, index) => judged[index] === undefined);
  const outcomes = await patterns.match(
    regexRules.map((rule) => ({ source: rule.match.pattern, flags: ruleRegexFlags })),
    subject.text.trim(),
    ruleBudgetMs,
  );
  const byRule = new Map(regexRules.map((rule, index) => [rule, outcomes[index]]));
  return rules.map((rule, index) => ({
    ruleId: rule.id,
    name: rule.name,
    ...(judged[index] ?? verdictOf(byRule.get(rule))),
  }));
}

/** The verdict, or undefined when the rule's regular expression has to decide. */
function judgeWithoutRegex(rule: AutoReplyRule, subject: RuleSubject): Judged | undefined {
  if (!rule.enabled) return { applies: false, reason: 'the rule is switched off' };
  const { deviceId, outsideOpeningHours } = rule.conditions;
  if (deviceId !== undefined && deviceId !== subject.deviceId) {
    return { applies: false, reason: `the message did not arrive on modem ${deviceId}` };
  }
  if (outsideOpeningHours && isOpen(outsideOpeningHours, subject.at)) {
    return { applies: false, reason: 'it arrived within opening hours' };
  }
  const { kind, pattern } = rule.match;
  if (kind === 'regex') {
    if (!rule.patternDisabled) return undefined;
    return {
      applies: false,
      reason: 'its regular expression ran out of time before and is off until it is changed',
      patternState: 'disabled',
    };
  }
  if (!matchText({ kind, pattern }, subject.text))
    return { applies: false, reason: 'the text does not match' };
  return { applies: true, reason: kind === 'any' ? 'every message matches' : 'the text matches' };
}

function verdictOf(outcome: PatternOutcome | undefined): Judged {
  switch (outcome?.kind) {
    case 'matched':
      return { applies: true, reason: 'the text matches' };
    case 'unmatched':
      return { applies: false, reason: 'the text does not match' };
    case 'timed-out':
      return {
        applies: false,
        reason: 'the regular expression ran out of time on this text',
        patternState: 'timed-out',
      };
    case 'invalid':
      return { applies: false, reason: `the regular expression is not valid: ${outcome.message}` };
    case 'not-run':
    case undefined:
      return {
        applies: false,
        reason: 'the regular expressions before it used up the time for this message',
        patternState: 'not-run',
      };
  }
}
