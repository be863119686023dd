import { isOpen } from './openingHours.js';
import type { AutoReplyRule } from './ruleBook.js';
import { matchText } from './textMatch.js';

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
}

/** Every rule's verdict, in evaluation order. Pure: acting is `AutoReplyService`'s job. */
export function judgeRules(rules: readonly AutoReplyRule[], subject: RuleSubject): RuleVerdict[] {
  return rules.map((rule) => ({ ruleId: rule.id, name: rule.name, ...judge(rule, subject) }));
}

function judge(rule: AutoReplyRule, subject: RuleSubject): { applies: boolean; reason: string } {
  if (!rule.enabled) return { applies: false, reason: 'the rule is switched off' };
  const { deviceId, outsideOpeningHours } = rule.conditions;
  if (deviceId !== undefined && deviceId !== subject.deviceId) {
    return { applies: false, reason: `the message did not arrive on modem ${deviceId}` };
  }
  if (outsideOpeningHours && isOpen(outsideOpeningHours, subject.at)) {
    return { applies: false, reason: 'it arrived within opening hours' };
  }
  const outcome = matchText(rule.match, subject.text);
  if (outcome.timedOut) {
    return { applies: false, reason: 'the regular expression ran out of time on this text' };
  }
  if (!outcome.matched) return { applies: false, reason: 'the text does not match' };
  return { applies: true, reason: rule.match.kind === 'any' ? 'every message matches' : 'the text matches' };
}
