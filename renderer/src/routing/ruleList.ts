import { ApiError } from '../api/apiClient.js';
import type { RoutingRuleInput, RoutingRuleView } from '../api/types.js';

/** The fields of a routing rule the form edits, as the API names them. */
export type RuleField = 'prefix' | 'operator' | 'country' | 'deviceIds' | 'fallbackDeviceIds';

/** The rules with the one at `index` moved by `step` places (-1: up); unchanged at either end. */
export function moveRule<Rule>(rules: readonly Rule[], index: number, step: -1 | 1): Rule[] {
  const target = index + step;
  const moved = [...rules];
  const [rule] = moved.splice(index, 1);
  if (rule === undefined || target < 0 || target > rules.length - 1) return [...rules];
  moved.splice(target, 0, rule);
  return moved;
}

/** The rules as PUT /gateway/v1/routing takes them, with `draft` at `index` (or added last). */
export function rulesWith(
  rules: readonly RoutingRuleView[],
  draft: RoutingRuleInput,
  index: number | undefined,
): RoutingRuleInput[] {
  if (index === undefined) return [...rules, draft];
  return rules.map((rule, at) => (at === index ? { ...draft, id: rule.id } : rule));
}

/**
 * The form field a refusal of the rule at `index` names: the API answers `rules[2].prefix`
 * (or `rules[2].deviceIds[0]`) for the third rule's prefix. Undefined when it names another
 * rule, or something the form has no field for.
 */
export function refusedField(error: unknown, index: number): RuleField | undefined {
  if (!(error instanceof ApiError) || error.kind !== 'invalid' || error.field === undefined) return undefined;
  const named = /^rules\[(\d+)\]\.(prefix|operator|country|deviceIds|fallbackDeviceIds)\b/.exec(error.field);
  return named && Number(named[1]) === index ? (named[2] as RuleField) : undefined;
}
