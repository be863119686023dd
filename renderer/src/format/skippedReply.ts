import type { RuleRecord } from '../api/types.js';
import { formatDateTime } from './timeFormat.js';

type SkippedReply = NonNullable<RuleRecord['lastSkipped']>;

/** "{name} has no value" / "{name}, {order} have no value". */
function unfilledText(skipped: SkippedReply): string {
  const names = skipped.missing.map((name) => `{${name}}`).join(', ');
  return `${names} ${skipped.missing.length === 1 ? 'has' : 'have'} no value`;
}

/** On the rule: whom it did not answer, why, and the two ways to mend it. */
export function skippedOnRule(skipped: SkippedReply): string {
  const first = skipped.missing[0] ?? 'name';
  return `Sent no reply to ${skipped.phoneNumber} at ${formatDateTime(skipped.at)}: ${unfilledText(skipped)} for a sender who is not in your contacts. Give it a fallback, as {${first}|there}, or add the sender to contacts.`;
}

/** In the sender's conversation: which rule stayed silent, and why. */
export function skippedInConversation(rule: Pick<RuleRecord, 'name'>, skipped: SkippedReply): string {
  return `The auto-reply “${rule.name}” sent nothing to this number at ${formatDateTime(skipped.at)}: ${unfilledText(skipped)} for a number that is not in your contacts.`;
}
