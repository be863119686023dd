import type { MessageRecord } from '../../contract/domain/message.js';
import { decideRoute, describeMatch, needsOperator } from '../../contract/domain/routingRules.js';
import { type SimTarget, type SimTargetForm, toSimTarget } from '../../contract/domain/simTarget.js';
import type { Hold } from '../scheduler/holdReason.js';
import type { OperatorData } from './operatorData.js';
import type { RoutingBook } from './routingBook.js';

type Modem = { deviceId: string };

/**
 * Whether the targets let a slot of one of these modems carry the message: the slot it asks for
 * (`simNumber`) or any, within what its app allows (`allowed`; undefined: any). `namesModem`:
 * the targets name one of the modems, so when none is usable the slot is why.
 */
function reach(
  targets: readonly SimTarget[],
  message: MessageRecord,
  able: readonly Modem[],
  allowed?: readonly SimTarget[],
) {
  const named = targets.filter((target) => able.some((modem) => modem.deviceId === target.deviceId));
  const usable = named.some((target) => {
    const slot = message.simNumber ?? target.simNumber;
    if (slot !== undefined && target.simNumber !== undefined && target.simNumber !== slot) return false;
    return (
      allowed === undefined ||
      allowed.some(
        (own) =>
          own.deviceId === target.deviceId &&
          (own.simNumber === undefined || slot === undefined || own.simNumber === slot),
      )
    );
  });
  return { usable, namesModem: named.length > 0 };
}

/**
 * The hold of a message its routing rule keeps off every modem or SIM slot that could carry it
 * now, within what its app allows: the rule (by its place in the list and what it matches) and the
 * targets it allows, the fallback ones included. Undefined when no rule decides (none matches,
 * or the sender pinned a modem) or when one of the targets the rule chose can carry it, so
 * another hold (a plan's cap) is the reason.
 */
export function routingHold(
  book: Pick<RoutingBook, 'list'>,
  operators: Pick<OperatorData, 'operatorOf'>,
  message: MessageRecord,
  able: readonly Modem[],
  online: readonly Modem[],
  /** The message's app's allowed modems and SIMs; undefined: any. */
  appTargets?: readonly SimTargetForm[],
): Hold | undefined {
  const number = message.recipients[0]?.phoneNumber;
  if (message.requestedDeviceId !== undefined || number === undefined) return undefined;
  const rules = book.list();
  const onlineIds = new Set(online.map((modem) => modem.deviceId));
  const operator = needsOperator(rules) ? operators.operatorOf(number) : undefined;
  const decision = decideRoute(rules, number, onlineIds, operator);
  const chosen = decision.deviceIds;
  if (chosen === undefined) return undefined;
  const { usable, namesModem } = reach(chosen, message, able, appTargets?.map(toSimTarget));
  if (usable) return undefined;
  const position = rules.findIndex((rule) => rule.id === decision.ruleId);
  const rule = rules[position];
  if (rule === undefined) return undefined;
  const ruleTargets = [...rule.deviceIds, ...rule.fallbackDeviceIds];
  return {
    reason: 'routing',
    rule: { position: position + 1, match: describeMatch(rule) },
    deviceIds: rule.deviceIds,
    fallbackDeviceIds: rule.fallbackDeviceIds,
    ...(namesModem && message.simNumber !== undefined ? { simNumber: message.simNumber } : {}),
    offline: ruleTargets.every((target) => !onlineIds.has(target.deviceId)),
  };
}

/**
 * The hold of a message its app's allowed modems and SIM slots keep off every modem that could
 * carry it now (or off the slot it asks for). Undefined when the app may use any, or one of
 * these modems.
 */
export function appHold(
  app: { name: string; allowedDeviceIds?: readonly SimTargetForm[] } | undefined,
  message: MessageRecord,
  able: readonly Modem[],
  online: readonly Modem[],
): Hold | undefined {
  if (app?.allowedDeviceIds === undefined) return undefined;
  const allowed = app.allowedDeviceIds.map(toSimTarget);
  const { usable, namesModem } = reach(allowed, message, able);
  if (usable) return undefined;
  const onlineIds = new Set(online.map((modem) => modem.deviceId));
  return {
    reason: 'routing',
    app: app.name,
    deviceIds: allowed,
    fallbackDeviceIds: [],
    ...(namesModem && message.simNumber !== undefined ? { simNumber: message.simNumber } : {}),
    offline: allowed.every((target) => !onlineIds.has(target.deviceId)),
  };
}
