import type { PeriodKind } from '../../clock/resetPeriods.js';

/**
 * A SIM's carrier plan (docs/accounts-plans-routing.md, "SIM plans"): caps per day, week and
 * month, a cap on distinct recipients per period, counted in SMS or in SMS parts, all
 * restarting at `resetAt` in `timeZone`. A capped SIM takes no message until its period resets;
 * a message routed only to capped SIMs waits (`hold`) or goes through another SIM (`spill`).
 */
export type PlanUnit = 'messages' | 'parts';
export type WhenCapped = 'hold' | 'spill';

export interface SimPlanTerms {
  perDay?: number;
  perWeek?: number;
  perMonth?: number;
  /** At most `limit` distinct recipients per `period`. */
  recipients?: { limit: number; period: PeriodKind };
  unit: PlanUnit;
  /** "HH:MM", 24-hour. */
  resetAt: string;
  /** IANA zone. */
  timeZone: string;
  whenCapped: WhenCapped;
}

/** A SIM: the modem's persistent id (devices/deviceIdentity.ts) and the slot, 1-based. */
export interface SimRef {
  deviceId: string;
  sim: number;
}

export interface SimPlan extends SimRef, SimPlanTerms {}

/** One cap of a plan: what it counts, over which period, and its limit. */
export interface PlanCap {
  /** "day", "week", "month": SMS or parts; "recipients": distinct recipients. */
  name: PeriodKind | 'recipients';
  period: PeriodKind;
  limit: number;
}

export function planCaps(plan: SimPlanTerms): PlanCap[] {
  const caps: PlanCap[] = [];
  if (plan.perDay !== undefined) caps.push({ name: 'day', period: 'day', limit: plan.perDay });
  if (plan.perWeek !== undefined) caps.push({ name: 'week', period: 'week', limit: plan.perWeek });
  if (plan.perMonth !== undefined) caps.push({ name: 'month', period: 'month', limit: plan.perMonth });
  if (plan.recipients) {
    caps.push({ name: 'recipients', period: plan.recipients.period, limit: plan.recipients.limit });
  }
  return caps;
}

export function simKey(sim: SimRef): string {
  return `${sim.deviceId}/${sim.sim}`;
}

/** "SIM 1 of modem 3f2a…": how the hold reason and the notices name a SIM. */
export function simName(sim: SimRef): string {
  return `${sim.sim} of modem ${sim.deviceId}`;
}
