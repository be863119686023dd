import type { HoldReason } from '../domain/holdReasons.js';

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
      /** A routing rule (routing/) allows only modems none of which can carry the message now. */
      reason: 'routing';
      nextAttemptAt?: undefined;
      deviceId?: undefined;
      /** The rule's place in the list (from 1) and what it matches: "+4917", "Vodafone (DE)". */
      rule: { position: number; match: string };
      deviceIds: string[];
      fallbackDeviceIds: string[];
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
    case 'no-modem':
      return hold.deviceId === undefined
        ? 'no modem: waiting for a modem able to send'
        : `no modem: waiting for modem ${hold.deviceId} to come online`;
  }
}

/** "routing rule 2 (+4917) allows only modem A, then modem B, which are offline". */
function describeRoutingHold(hold: Extract<Hold, { reason: 'routing' }>): string {
  const modems = (ids: readonly string[]) => `${ids.length === 1 ? 'modem' : 'modems'} ${ids.join(', ')}`;
  const fallback = hold.fallbackDeviceIds.length === 0 ? '' : `, then ${modems(hold.fallbackDeviceIds)}`;
  const count = hold.deviceIds.length + hold.fallbackDeviceIds.length;
  const [one, several] = hold.offline
    ? ['which is offline', 'which are offline']
    : ['which cannot send now', 'none of which can send now'];
  const state = count === 1 ? one : several;
  return `routing rule ${hold.rule.position} (${hold.rule.match}) allows only ${modems(hold.deviceIds)}${fallback}, ${state}`;
}

function formatWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.ceil(minutes / 60)} h`;
}
