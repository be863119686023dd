import type { Clock, TimerHandle } from '../../clock/clock.js';
import { type Period, type PeriodKind, periodAt } from '../../clock/resetPeriods.js';
import { type PlanNoticeLevel, PlanNoticeLevels } from '../../contract/domain/planNoticeLevels.js';
import type { SendRecord, SendTally } from '../../store/sendLog.js';
import type { PlanBook } from './planBook.js';
import { type PlanCap, planCaps, type SimPlan, type SimRef } from './simPlan.js';

/** One cap of a SIM's plan against what the SIM sent in the cap's period. */
export interface CapUse {
  cap: PlanCap;
  used: number;
  /** When the period ends and the count starts again (ms). */
  resetsAt: number;
}

/** A SIM's use reached 80 % or 100 % of one of its caps. */
export interface PlanNotice {
  sim: SimRef;
  use: CapUse;
  level: PlanNoticeLevel;
  unit: SimPlan['unit'];
}

export interface SimPlanUsage {
  /** Each cap of the SIM's plan with its use now; empty without a plan. */
  usage(sim: SimRef): CapUse[];
  /**
   * The cap that keeps the SIM from taking a message to these recipients now: a count that
   * reached its limit, or the distinct recipients' cap reached by a recipient not yet counted
   * (`recipients` is asked only then). Asking arms a wake-up at its reset.
   */
  blockingCap(sim: SimRef, recipients: () => readonly string[]): CapUse | undefined;
  /**
   * A message of `appId` went to these recipients through the SIM, each in `parts` SMS parts:
   * stored in the send log, and counted.
   */
  record(sim: SimRef, send: { recipients: readonly string[]; parts: number; appId: string }): void;
  /** A capped SIM's period ended: messages it held may move. */
  onReset(listener: () => void): () => void;
  stop(): void;
}

/** What the usage needs of the store (store/sendLog.ts). */
export interface PlanUseStore {
  record(sends: readonly SendRecord[]): Promise<void>;
  tallySince(deviceId: string, sim: number, since: number): SendTally;
}

interface PeriodTally {
  period: Period;
  messages: number;
  parts: number;
  recipients: Set<string>;
}

/**
 * What each SIM sent in each of its plan's periods. A period's tally is read from the send log
 * once, the first time it is asked for (so counts survive a restart), then kept in memory and
 * added to as messages go out; a message's sends are written in the commit of its hand-over.
 */
export function createSimPlanUsage(deps: {
  book: Pick<PlanBook, 'get' | 'onChange'>;
  store: PlanUseStore;
  clock: Clock;
  notify: (notice: PlanNotice) => void;
  onWriteFailed: (error: unknown) => void;
}): SimPlanUsage {
  const { book, store, clock } = deps;
  // Per plan (the book's object, replaced on a change): its caps and the tally of each period
  // kind last read. Asked for every message a free modem looks at, so nothing here allocates
  // unless a period turns over.
  let states = new WeakMap<SimPlan, { caps: PlanCap[]; tallies: Map<PeriodKind, PeriodTally> }>();
  const resetListeners = new Set<() => void>();
  let resetTimer: { at: number; handle: TimerHandle } | undefined;
  // A changed reset time or zone moves every period: read them again.
  const unsubscribe = book.onChange(() => {
    states = new WeakMap();
  });

  const stateOf = (plan: SimPlan) => {
    let state = states.get(plan);
    if (!state) {
      state = { caps: planCaps(plan), tallies: new Map() };
      states.set(plan, state);
    }
    return state;
  };

  const tallyOf = (plan: SimPlan, kind: PeriodKind, now: number): PeriodTally => {
    const { tallies } = stateOf(plan);
    const known = tallies.get(kind);
    if (known && now >= known.period.start && now < known.period.end) return known;
    const period = periodAt(kind, plan, now);
    const read = store.tallySince(plan.deviceId, plan.sim, period.start);
    const fresh = {
      period,
      messages: read.messages,
      parts: read.parts,
      recipients: new Set(read.recipients),
    };
    tallies.set(kind, fresh);
    return fresh;
  };

  const usedOf = (plan: SimPlan, cap: PlanCap, tally: PeriodTally): number =>
    cap.name === 'recipients' ? tally.recipients.size : plan.unit === 'parts' ? tally.parts : tally.messages;

  const usageOf = (plan: SimPlan, now: number): CapUse[] =>
    stateOf(plan).caps.map((cap) => {
      const tally = tallyOf(plan, cap.period, now);
      return { cap, used: usedOf(plan, cap, tally), resetsAt: tally.period.end };
    });

  const wakeAt = (at: number, now: number) => {
    if (resetTimer && resetTimer.at <= at) return;
    resetTimer?.handle.cancel();
    resetTimer = {
      at,
      handle: clock.setTimer(() => {
        resetTimer = undefined;
        for (const listener of resetListeners) listener();
      }, at - now),
    };
  };

  return {
    usage(sim) {
      const plan = book.get(sim);
      return plan ? usageOf(plan, clock.now()) : [];
    },

    blockingCap(sim, recipients) {
      const plan = book.get(sim);
      if (!plan) return undefined;
      const now = clock.now();
      for (const cap of stateOf(plan).caps) {
        const tally = tallyOf(plan, cap.period, now);
        const used = usedOf(plan, cap, tally);
        if (used < cap.limit) continue;
        if (cap.name === 'recipients' && recipients().every((recipient) => tally.recipients.has(recipient))) {
          continue;
        }
        wakeAt(tally.period.end, now);
        return { cap, used, resetsAt: tally.period.end };
      }
      return undefined;
    },

    record(sim, { recipients, parts, appId }) {
      const now = clock.now();
      const plan = book.get(sim);
      // Read before the rows are written, which the same connection would count at once.
      const before = plan ? usageOf(plan, now) : [];
      const sends = recipients.map((recipient) => ({ ...sim, at: now, recipient, parts, appId }));
      store.record(sends).catch(deps.onWriteFailed);
      if (!plan) return;
      const kinds = new Set(stateOf(plan).caps.map((cap) => cap.period));
      for (const kind of kinds) {
        const tally = tallyOf(plan, kind, now);
        tally.messages += recipients.length;
        tally.parts += recipients.length * parts;
        for (const recipient of recipients) tally.recipients.add(recipient);
      }
      const after = usageOf(plan, now);
      after.forEach((use, index) => {
        const was = before[index]?.used ?? 0;
        // One notice for the highest mark crossed: a long message may pass both at once.
        const crossed = PlanNoticeLevels.filter((level) => {
          const mark = (use.cap.limit * level) / 100;
          return was < mark && use.used >= mark;
        }).at(-1);
        if (crossed !== undefined) deps.notify({ sim, use, level: crossed, unit: plan.unit });
      });
    },

    onReset(listener) {
      resetListeners.add(listener);
      return () => resetListeners.delete(listener);
    },

    stop() {
      unsubscribe();
      resetTimer?.handle.cancel();
      resetTimer = undefined;
    },
  };
}
