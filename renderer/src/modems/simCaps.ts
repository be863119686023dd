import type { SimPlanView } from '../api/types.js';

type Use = SimPlanView['usage'][number];

/** A SIM that has used a whole cap: it takes no message until the last such cap resets. */
export interface CappedSim {
  sim: number;
  until: string;
  /** The cap that lifts last, as its use reads: "550 of 5 messages per month". */
  use: Use;
  unit: SimPlanView['unit'];
  whenCapped: SimPlanView['whenCapped'];
}

export const isCapReached = (use: Use) => use.used >= use.limit;

/** "550 of 5 messages per month" (a cap of distinct recipients counts recipients). */
export function capUseText(use: Use, unit: SimPlanView['unit']): string {
  const counted = use.cap === 'recipients' ? 'recipients' : unit === 'parts' ? 'SMS parts' : 'messages';
  return `${use.used} of ${use.limit} ${counted} per ${use.period}`;
}

/** The capped SIMs of one modem, in slot order. */
export function cappedSims(plans: readonly SimPlanView[] | undefined, deviceId: string): CappedSim[] {
  const capped: CappedSim[] = [];
  for (const plan of plans ?? []) {
    if (plan.deviceId !== deviceId) continue;
    const reached = plan.usage.filter(isCapReached);
    const last = reached.reduce<Use | undefined>(
      (latest, use) =>
        latest === undefined || Date.parse(use.resetsAt) > Date.parse(latest.resetsAt) ? use : latest,
      undefined,
    );
    if (last) {
      capped.push({
        sim: plan.sim,
        until: last.resetsAt,
        use: last,
        unit: plan.unit,
        whenCapped: plan.whenCapped,
      });
    }
  }
  return capped.sort((a, b) => a.sim - b.sim);
}
