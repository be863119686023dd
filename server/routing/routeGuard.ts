import type { MessageRecord } from '../domain/message.js';
import type { PlanGate } from '../plans/planGate.js';
import type { OperatorData } from './operatorData.js';
import type { RoutingBook } from './routingBook.js';
import { decideRoute, needsOperator } from './routingRules.js';

/**
 * The scheduler's routing hook (`SchedulerDeps.mayRoute`): may this modem carry the message?
 * An app's allowed modems bound everything its messages do; then the routing rules decide by
 * the first recipient's number (and its operator, when a rule asks). A message pinned to a
 * modem by its sender (`deviceId`) is the sender's choice and is not routed. A modem whose SIM reached its plan's cap takes nothing;
 * a message its rule sends only to capped SIMs goes through any other modem when one of their
 * plans says `spill`, and waits otherwise.
 */
export function createRouteGuard(deps: {
  book: Pick<RoutingBook, 'list'>;
  operators: Pick<OperatorData, 'operatorOf'>;
  /** The modems an app may use; undefined: any. */
  allowedDevices: (appId: string) => readonly string[] | undefined;
  plans?: Pick<PlanGate, 'capped' | 'spills'>;
}): (message: MessageRecord, deviceId: string, online: readonly { deviceId: string }[]) => boolean {
  const { plans } = deps;
  return (message, deviceId, online) => {
    const allowed = message.appId === undefined ? undefined : deps.allowedDevices(message.appId);
    if (allowed && !allowed.includes(deviceId)) return false;
    if (plans?.capped(message, deviceId)) return false;
    if (message.requestedDeviceId !== undefined) return true;
    const rules = deps.book.list();
    const number = message.recipients[0]?.phoneNumber;
    // Asked for every message a free modem looks at: without rules, nothing to build.
    if (rules.length === 0 || number === undefined) return true;
    const operator = needsOperator(rules) ? deps.operators.operatorOf(number) : undefined;
    const decision = decideRoute(rules, number, new Set(online.map((modem) => modem.deviceId)), operator);
    if (decision.deviceIds === undefined || decision.deviceIds.includes(deviceId)) return true;
    const chosen = decision.deviceIds;
    return (
      plans !== undefined &&
      chosen.every((id) => plans.capped(message, id)) &&
      chosen.some((id) => plans.spills(message, id))
    );
  };
}
