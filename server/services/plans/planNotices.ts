import { PlanNoticeLevels } from '../../contract/domain/planNoticeLevels.js';
import type { WebhookEvent } from '../../contract/domain/webhookEvents.js';
import type { PlanBook } from './planBook.js';
import { simName } from './simPlan.js';
import type { PlanNotice, SimPlanUsage } from './simPlanUsage.js';

/**
 * `plan:cap-warning` (80 % of a cap) and `plan:cap-reached` (100 %), our own webhook events
 * (docs/accounts-plans-routing.md, "SIM plans").
 */
export function planNoticeEvent(notice: PlanNotice): WebhookEvent {
  const { sim, use, level, unit } = notice;
  return {
    event: level === 100 ? 'plan:cap-reached' : 'plan:cap-warning',
    deviceId: sim.deviceId,
    payload: {
      simNumber: sim.sim,
      cap: use.cap.name,
      period: use.cap.period,
      unit: use.cap.name === 'recipients' ? 'recipients' : unit,
      used: use.used,
      limit: use.cap.limit,
      percent: level,
      resetsAt: new Date(use.resetsAt).toISOString(),
    },
  };
}

/** One line for the log: the SIM by its modem's id, the reset in UTC. */
export function describePlanNotice(notice: PlanNotice): string {
  const { sim, use, unit } = notice;
  const counted = use.cap.name === 'recipients' ? 'recipients' : unit;
  return `SIM ${simName(sim)} used ${use.used} of ${use.cap.limit} ${counted} per ${use.cap.period}; resets at ${new Date(use.resetsAt).toISOString()}`;
}

/** How the desktop names a modem and a moment for the person at the PC. */
export interface AlertWording {
  /** The modem's name as its card shows it, or undefined for one the pool no longer knows. */
  modemName(deviceId: string): string | undefined;
  /** A moment in the PC's own time zone and language. */
  localTime(ms: number): string;
}

/** "SIM 1 of Huawei E3372 (/dev/ttyUSB0) used 5 of 5 messages per day; counts again from 8 Dec 2026, 12:10". */
export function describePlanAlert(notice: PlanNotice, wording: AlertWording): string {
  const { sim, use, unit } = notice;
  const counted = use.cap.name === 'recipients' ? 'recipients' : unit;
  const modem = wording.modemName(sim.deviceId) ?? `modem ${sim.deviceId}`;
  return `SIM ${sim.sim} of ${modem} used ${use.used} of ${use.cap.limit} ${counted} per ${use.cap.period}; counts again from ${wording.localTime(use.resetsAt)}`;
}

/** The SIMs at or near a cap now, one line each, for the desktop's notifications. */
export function planAlerts(
  plans: Pick<PlanBook, 'list'>,
  usage: Pick<SimPlanUsage, 'usage'>,
  wording: AlertWording,
): { near: string[]; reached: string[] } {
  const near: string[] = [];
  const reached: string[] = [];
  const [warning, full] = PlanNoticeLevels;
  for (const plan of plans.list()) {
    for (const use of usage.usage(plan)) {
      const percent = use.cap.limit === 0 ? 100 : (use.used * 100) / use.cap.limit;
      const line = describePlanAlert({ sim: plan, use, level: full, unit: plan.unit }, wording);
      if (percent >= full) reached.push(line);
      else if (percent >= warning) near.push(line);
    }
  }
  return { near, reached };
}
