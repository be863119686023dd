import type { HoldReason } from '../../contract/domain/holdReasons.js';
import { type SimTarget, targetLabel } from '../../contract/domain/simTarget.js';

export type Hold =
  | {
      reason: Exclude<HoldReason, 'plan-cap' | 'routing'>;
      /** When the scheduler will look again on its own (ms since epoch); absent: on an event. */
      nextAttemptAt?: number;
      /** Which modem the hold is about, when one is. */
      deviceId?: string;
    }
  | {
      /** A SIM plan's cap (plans/): the SIM slot of `deviceId`, and the cap. */
      reason: 'plan-cap';
      /** The cap's reset. */
      nextAttemptAt: number;
      deviceId: string;
      plan: { sim: number; cap: string };
    }
  | {
      /**
       * A routing rule, or the message's app (routing/), allows only modems or SIM slots none
       * of which can carry the message now.
       */
      reason: 'routing';
      nextAttemptAt?: undefined;
      deviceId?: undefined;
      /**
       * The rule's place in the list (from 1) and what it matches ("+4917", "Vodafone (DE)");
       * absent: the app's name decides.
       */
      rule?: { position: number; match: string };
      app?: string;
      deviceIds: SimTarget[];
      fallbackDeviceIds: SimTarget[];
      /** The slot the message asks for, when those name its modem but not that slot. */
      simNumber?: number;
      /** Whether every one of those modems is offline (else some are online but cannot send). */
      offline: boolean;
    };

/** "rate limit: next send in 42 s" — seconds rounded up, so "0 s" never shows while waiting. */
export function describeHold(hold: Hold, now: number): string {
  const wait =
    hold.nextAttemptAt === undefined
      ? ''
      : `next send in ${formatWait(Math.max(0, hold.nextAttemptAt - now))}`;
  switch (hold.reason) {
    case 'rate-limit':
      return `rate limit: ${wait}`;
    case 'send-interval':
      return `send interval: ${wait}`;
    case 'scheduled':
      return `scheduled: ${wait}`;
    case 'paused':
      return 'paused: sending was paused by the user';
    case 'work-hours':
      return `outside working hours: ${wait}`;
    case 'plan-cap':
      return `plan cap reached on SIM ${hold.plan.sim} of modem ${hold.deviceId} (${hold.plan.cap}), resets at ${new Date(hold.nextAttemptAt).toISOString()}`;
    case 'routing':
      return describeRoutingHold(hold);
    case 'no-mms-device':
      return 'no MMS device: an MMS waits for a phone whose SMS Gateway app sends MMS';
    case 'no-modem':
      return hold.deviceId === undefined
        ? 'no modem: waiting for a modem able to send'
        : `no modem: waiting for modem ${hold.deviceId} to come online`;
  }
}

/**
 * "routing rule 2 (+4917) allows only modem A, then modem B, which are offline"; "SIM 2 asked
 * for, but app shop may use only modem A (SIM 1)".
 */
function describeRoutingHold(hold: Extract<Hold, { reason: 'routing' }>): string {
  const modems = (targets: readonly SimTarget[]) =>
    `${targets.length === 1 ? 'modem' : 'modems'} ${targets.map(targetLabel).join(', ')}`;
  const who = hold.rule
    ? `routing rule ${hold.rule.position} (${hold.rule.match}) allows`
    : `app ${hold.app} may use`;
  const fallback = hold.fallbackDeviceIds.length === 0 ? '' : `, then ${modems(hold.fallbackDeviceIds)}`;
  const count = hold.deviceIds.length + hold.fallbackDeviceIds.length;
  const [one, several] = hold.offline
    ? ['which is offline', 'which are offline']
    : ['which cannot send now', 'none of which can send now'];
  const state = count === 1 ? one : several;
  if (hold.simNumber !== undefined) {
    return `SIM ${hold.simNumber} asked for, but ${who} only ${modems(hold.deviceIds)}${fallback}`;
  }
  return `${who} only ${modems(hold.deviceIds)}${fallback}, ${state}`;
}

function formatWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.ceil(minutes / 60)} h`;
}
