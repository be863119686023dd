import type { MessageRecord } from '../domain/message.js';
import type { Hold } from '../scheduler/holdReason.js';
import type { OperatorData } from './operatorData.js';
import type { RoutingBook } from './routingBook.js';
import { decideRoute, describeMatch, needsOperator } from './routingRules.js';

/**
 * The hold of a message its routing rule keeps off every modem that could carry it now: the
 * rule (by its place in the list and what it matches) and the modems it allows, the fallback ones
 * included. Undefined when no rule decides (none matches, or the sender pinned a modem) or when
 * one of the modems the rule chose can carry it, so another hold (a plan's cap) is the reason.
 */
export function routingHold(
  book: Pick<RoutingBook, 'list'>,
  operators: Pick<OperatorData, 'operatorOf'>,
  message: MessageRecord,
  able: readonly { deviceId: string }[],
  online: readonly { deviceId: string }[],
): Hold | undefined {
  const number = message.recipients[0]?.phoneNumber;
  if (message.requestedDeviceId !== undefined || number === undefined) return undefined;
  const rules = book.list();
  const onlineIds = new Set(online.map((modem) => modem.deviceId));
  const operator = needsOperator(rules) ? operators.operatorOf(number) : undefined;
  const decision = decideRoute(rules, number, onlineIds, operator);
  const chosen = decision.deviceIds;
  if (chosen === undefined || chosen.some((id) => able.some((modem) => modem.deviceId === id)))
    return undefined;
  const position = rules.findIndex((rule) => rule.id === decision.ruleId);
  const rule = rules[position];
  if (rule === undefined) return undefined;
  const allowed = [...rule.deviceIds, ...rule.fallbackDeviceIds];
  return {
    reason: 'routing',
    rule: { position: position + 1, match: describeMatch(rule) },
    deviceIds: rule.deviceIds,
    fallbackDeviceIds: rule.fallbackDeviceIds,
    offline: allowed.every((id) => !onlineIds.has(id)),
  };
}
