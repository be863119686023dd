import type { MessageRecord } from '../../contract/domain/message.js';
import type { Hold } from '../scheduler/scheduler.js';
import type { PlanBook } from './planBook.js';
import type { SimRef } from './simPlan.js';
import type { CapUse, SimPlanUsage } from './simPlanUsage.js';

/**
 * What routing asks of the SIM plans (routing/routeGuard.ts) and what the scheduler's hold
 * says of them, for one SIM slot at a time; a recipient already sent is not counted again.
 */
export interface PlanGate {
  /** Whether this SIM has reached a cap for the message. */
  capped(message: MessageRecord, sim: SimRef): boolean;
  /** Whether the SIM's plan lets a message routed only to it go through another SIM. */
  spills(sim: SimRef): boolean;
  /**
   * The hold of a message the SIMs of these modems are capped for (the slot it asks for, else
   * every slot): the earliest reset.
   */
  hold(message: MessageRecord, able: readonly { deviceId: string; simSlots: number }[]): Hold | undefined;
}

export function createPlanGate(deps: {
  book: Pick<PlanBook, 'get'>;
  usage: SimPlanUsage;
  /** How the send log keys a number (the same person written with or without spaces). */
  numberKey: (phoneNumber: string) => string;
}): PlanGate {
  const waiting = (message: MessageRecord) =>
    message.recipients
      .filter((recipient) => recipient.state === 'Pending')
      .map((recipient) => deps.numberKey(recipient.phoneNumber));
  // Asked for every message each free modem looks at: most SIMs have no plan.
  const blocking = (message: MessageRecord, sim: SimRef) =>
    deps.book.get(sim) ? deps.usage.blockingCap(sim, () => waiting(message)) : undefined;
  const simsOf = (message: MessageRecord, modem: { deviceId: string; simSlots: number }): SimRef[] => {
    const slots =
      message.simNumber === undefined
        ? Array.from({ length: Math.max(1, Math.floor(modem.simSlots)) }, (_, index) => index + 1)
        : [message.simNumber];
    return slots.map((sim) => ({ deviceId: modem.deviceId, sim }));
  };

  return {
    capped: (message, sim) => blocking(message, sim) !== undefined,
    spills: (sim) => deps.book.get(sim)?.whenCapped === 'spill',
    hold(message, able) {
      let earliest: { sim: SimRef; use: CapUse } | undefined;
      for (const sim of able.flatMap((modem) => simsOf(message, modem))) {
        const use = blocking(message, sim);
        if (use && (!earliest || use.resetsAt < earliest.use.resetsAt)) earliest = { sim, use };
      }
      if (!earliest) return undefined;
      const { sim, use } = earliest;
      const unit = deps.book.get(sim)?.unit ?? 'messages';
      const counted = use.cap.name === 'recipients' ? 'recipients' : unit;
      return {
        reason: 'plan-cap',
        deviceId: sim.deviceId,
        nextAttemptAt: use.resetsAt,
        plan: { sim: sim.sim, cap: `${use.cap.limit} ${counted} per ${use.cap.period}` },
      };
    },
  };
}
