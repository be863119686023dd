import type { MessageRecord } from '../domain/message.js';
import type { Hold } from '../scheduler/scheduler.js';
import type { PlanBook } from './planBook.js';
import type { SimRef } from './simPlan.js';
import type { CapUse, SimPlanUsage } from './simPlanUsage.js';

/**
 * What routing asks of the SIM plans (routing/routeGuard.ts) and what the scheduler's hold
 * says of them. A message uses the SIM slot it names, else slot 1 (the modem's default); a
 * recipient already sent is not counted again.
 */
export interface PlanGate {
  /** Whether the SIM of this modem the message would use has reached a cap for it. */
  capped(message: MessageRecord, deviceId: string): boolean;
  /** Whether that SIM's plan lets a message routed only to it go through another SIM. */
  spills(message: MessageRecord, deviceId: string): boolean;
  /** The hold of a message these modems' SIMs are capped for: the earliest reset. */
  hold(message: MessageRecord, able: readonly { deviceId: string }[]): Hold | undefined;
}

export function createPlanGate(deps: {
  book: Pick<PlanBook, 'get'>;
  usage: SimPlanUsage;
  /** How the send log keys a number (the same person written with or without spaces). */
  numberKey: (phoneNumber: string) => string;
}): PlanGate {
  const simOf = (message: MessageRecord, deviceId: string): SimRef => ({
    deviceId,
    sim: message.simNumber ?? 1,
  });
  const waiting = (message: MessageRecord) =>
    message.recipients
      .filter((recipient) => recipient.state === 'Pending')
      .map((recipient) => deps.numberKey(recipient.phoneNumber));
  // Asked for every message each free modem looks at: most SIMs have no plan.
  const blocking = (message: MessageRecord, deviceId: string) => {
    const sim = simOf(message, deviceId);
    return deps.book.get(sim) ? deps.usage.blockingCap(sim, () => waiting(message)) : undefined;
  };

  return {
    capped: (message, deviceId) => blocking(message, deviceId) !== undefined,
    spills: (message, deviceId) => deps.book.get(simOf(message, deviceId))?.whenCapped === 'spill',
    hold(message, able) {
      let earliest: { deviceId: string; use: CapUse } | undefined;
      for (const { deviceId } of able) {
        const use = blocking(message, deviceId);
        if (use && (!earliest || use.resetsAt < earliest.use.resetsAt)) earliest = { deviceId, use };
      }
      if (!earliest) return undefined;
      const { deviceId, use } = earliest;
      const unit = deps.book.get(simOf(message, deviceId))?.unit ?? 'messages';
      const counted = use.cap.name === 'recipients' ? 'recipients' : unit;
      return {
        reason: 'plan-cap',
        deviceId,
        nextAttemptAt: use.resetsAt,
        plan: { sim: simOf(message, deviceId).sim, cap: `${use.cap.limit} ${counted} per ${use.cap.period}` },
      };
    },
  };
}
