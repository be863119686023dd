import { type SimTarget, targetLabel } from './simTarget.js';

/**
 * Routing rules (docs/accounts-plans-routing.md, "Routing"): an ordered list, each matching a
 * number prefix (`+4917`, or a country's `+49`) or an operator in a country, and the modems or
 * SIM slots that may carry messages to those numbers, with fallback ones used while none of
 * those modems is online. The first rule that matches the number wins; a number no rule matches
 * may go through any modem. Pure: the scheduler's hook and the "Try" route ask the same
 * question, with the number's operator looked up before.
 */
export interface RoutingRule extends RuleMatch {
  id: string;
  deviceIds: SimTarget[];
  /** Used only while none of `deviceIds`' modems is online; empty: the message waits for them. */
  fallbackDeviceIds: SimTarget[];
}

/** What a rule matches: a `prefix`, or an `operator` with its `country`, never both. */
export interface RuleMatch {
  /** E.164 prefix: "+", then up to 15 digits. */
  prefix?: string;
  /** The operator's name as the data gives it ("Vodafone"): names repeat across countries. */
  operator?: string;
  /** ISO 3166 alpha-2 region of the operator rule's numbers ("DE"). */
  country?: string;
}

/**
 * The operator a number's range is allocated to (operatorData.ts), with the number's country, or
 * why none is known.
 */
export type NumberOperator = { name: string; country: string } | { unknown: string };

export const operatorUnknown = 'operator unknown for this number';

export interface RouteDecision {
  /** Absent: any modem. */
  deviceIds?: SimTarget[];
  /** The rule that decided, if any. */
  ruleId?: string;
  why: string;
}

const labels = (targets: readonly SimTarget[]) => targets.map(targetLabel).join(', ');

/**
 * `operator`: the number's operator, looked up by the caller only when some rule matches by
 * operator (`needsOperator`); without it, no operator rule matches.
 */
export function decideRoute(
  rules: readonly RoutingRule[],
  phoneNumber: string,
  online: ReadonlySet<string>,
  operator?: NumberOperator,
): RouteDecision {
  const rule = rules.find((candidate) => matches(candidate, phoneNumber, operator));
  if (!rule) return { why: `no rule matches${operatorNote(rules, operator)}: any modem` };
  const name = describeMatch(rule);
  const anyOnline = rule.deviceIds.some((target) => online.has(target.deviceId));
  if (anyOnline || rule.fallbackDeviceIds.length === 0) {
    return {
      deviceIds: rule.deviceIds,
      ruleId: rule.id,
      why: `rule ${name}: ${labels(rule.deviceIds)}${anyOnline ? '' : ' (none online: it waits)'}`,
    };
  }
  return {
    deviceIds: rule.fallbackDeviceIds,
    ruleId: rule.id,
    why: `rule ${name}: none of ${labels(rule.deviceIds)} online, so the fallback ${labels(rule.fallbackDeviceIds)}`,
  };
}

/** Whether deciding needs the number's operator: some rule matches by operator. */
export function needsOperator(rules: readonly RuleMatch[]): boolean {
  return rules.some((rule) => rule.operator !== undefined);
}

/** "+4917", or "Vodafone (DE)": how the hold reasons and "Try" name a rule. */
export function describeMatch(rule: RuleMatch): string {
  return rule.operator === undefined ? (rule.prefix ?? '+') : `${rule.operator} (${rule.country})`;
}

function matches(rule: RuleMatch, phoneNumber: string, operator: NumberOperator | undefined): boolean {
  if (rule.operator === undefined) return phoneNumber.startsWith(rule.prefix ?? '+');
  return (
    operator !== undefined &&
    'name' in operator &&
    operator.name === rule.operator &&
    operator.country === rule.country
  );
}

/** Why the operator rules did not match, when there are some: the number's operator. */
function operatorNote(rules: readonly RuleMatch[], operator: NumberOperator | undefined): string {
  if (!needsOperator(rules) || operator === undefined) return '';
  return 'name' in operator
    ? ` (the number's operator: ${operator.name} (${operator.country}))`
    : ` (${operator.unknown})`;
}
