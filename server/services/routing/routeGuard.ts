import type { MessageRecord } from '../../contract/domain/message.js';
import { decideRoute, needsOperator } from '../../contract/domain/routingRules.js';
import {
  type ModemSlots,
  type SimTarget,
  type SimTargetForm,
  targetsAllow,
  toSimTarget,
} from '../../contract/domain/simTarget.js';
import type { PlanGate } from '../plans/planGate.js';
import type { OperatorData } from './operatorData.js';
import type { RoutingBook } from './routingBook.js';

/**
 * The scheduler's routing hook (`SchedulerDeps.mayRoute`): the SIM slots of this modem that may
 * carry the message now, lowest first; empty: none. A slot may when the message's app allows it,
 * the message asks for it (`simNumber`) or for none, its SIM's plan is not capped, and the
 * routing rule of the first recipient's number (and its operator, when a rule asks) names it. A message pinned to a modem by its
 * sender (`deviceId`) is the sender's choice and is not routed, but any other slot of that modem
 * may take it while one is capped, unless it names the slot too. A message its rule sends only
 * to capped SIMs goes through any other slot when one of their plans says `spill`, and waits
 * otherwise.
 */
export function createRouteGuard(deps: {
  book: Pick<RoutingBook, 'list'>;
  operators: Pick<OperatorData, 'operatorOf'>;
  /** The modems and SIM slots an app may use; undefined: any. */
  allowedTargets: (appId: string) => readonly SimTargetForm[] | undefined;
  plans?: Pick<PlanGate, 'capped' | 'spills'>;
}): (message: MessageRecord, modem: ModemSlots, online: readonly ModemSlots[]) => readonly number[] {
  const { plans } = deps;
  // Asked for every message each free modem looks at: the common answers allocate nothing.
  const everySlot: number[][] = [];
  const slotsOf = (count: number) => {
    const whole = Math.max(1, Math.floor(count));
    everySlot[whole] ??= Array.from({ length: whole }, (_, index) => index + 1);
    return everySlot[whole];
  };
  const oneSlot: number[][] = [];
  const only = (slot: number) => {
    oneSlot[slot] ??= [slot];
    return oneSlot[slot];
  };
  const none: readonly number[] = [];
  const readTargets = new WeakMap<readonly SimTargetForm[], SimTarget[]>();
  const allowedOf = (message: MessageRecord): readonly SimTarget[] | undefined => {
    const forms = message.appId === undefined ? undefined : deps.allowedTargets(message.appId);
    if (forms === undefined) return undefined;
    let targets = readTargets.get(forms);
    if (!targets) {
      targets = forms.map(toSimTarget);
      readTargets.set(forms, targets);
    }
    return targets;
  };
  /** Whether every SIM the rule names for the message is capped, and one of their plans spills. */
  const spillsPast = (
    message: MessageRecord,
    chosen: readonly SimTarget[],
    online: readonly ModemSlots[],
  ) => {
    if (!plans) return false;
    const sims = chosen.flatMap((target) => {
      const count = online.find((modem) => modem.deviceId === target.deviceId)?.simSlots ?? 1;
      const slots = target.simNumber === undefined ? slotsOf(count) : [target.simNumber];
      return slots
        .filter((slot) => message.simNumber === undefined || slot === message.simNumber)
        .map((sim) => ({ deviceId: target.deviceId, sim }));
    });
    return (
      sims.length > 0 &&
      sims.every((sim) => plans.capped(message, sim)) &&
      sims.some((sim) => plans.spills(sim))
    );
  };

  /**
   * The slots the targets allow (undefined: any) and, `checkPlans`, whose plan is not capped;
   * the same array when all are, so the common answer allocates nothing.
   */
  const openSlots = (
    message: MessageRecord,
    deviceId: string,
    slots: readonly number[],
    allowed: readonly SimTarget[] | undefined,
    checkPlans: boolean,
  ): readonly number[] => {
    let open: number[] | undefined;
    for (let index = 0; index < slots.length; index++) {
      const sim = slots[index] as number;
      const passes =
        (allowed === undefined || targetsAllow(allowed, deviceId, sim)) &&
        (!checkPlans || plans === undefined || !plans.capped(message, { deviceId, sim }));
      if (passes) open?.push(sim);
      else open ??= slots.slice(0, index);
    }
    return open ?? slots;
  };

  return (message, modem, online) => {
    const { deviceId } = modem;
    const wanted = message.simNumber === undefined ? slotsOf(modem.simSlots) : only(message.simNumber);
    const slots = openSlots(message, deviceId, wanted, allowedOf(message), true);
    if (slots.length === 0) return none;
    if (message.requestedDeviceId !== undefined) return slots;
    const rules = deps.book.list();
    const number = message.recipients[0]?.phoneNumber;
    if (rules.length === 0 || number === undefined) return slots;
    const operator = needsOperator(rules) ? deps.operators.operatorOf(number) : undefined;
    const onlineIds = new Set(online.map((each) => each.deviceId));
    const chosen = decideRoute(rules, number, onlineIds, operator).deviceIds;
    if (chosen === undefined) return slots;
    const ruled = openSlots(message, deviceId, slots, chosen, false);
    if (ruled.length > 0) return ruled;
    return spillsPast(message, chosen, online) ? slots : none;
  };
}
