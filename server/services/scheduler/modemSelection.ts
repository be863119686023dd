import type { MessageRecord } from '../../contract/domain/message.js';

const HOUR_MS = 3_600_000;

/** What modem choice looks at; a subset of `OutboundModem`. */
export interface ModemCandidate {
  deviceId: string;
  lastSeen: number;
  /** `OutboundModem.sendsMms`: only such a member carries an MMS. */
  sendsMms?: boolean;
}

/**
 * May this modem carry this message at all (limits aside)? A `requestedDeviceId` pins the message
 * to that modem: it waits for it rather than move. `deviceActiveWithinHours` (0 or absent: any)
 * keeps it off modems not heard from within that many hours. An MMS goes only to a member that
 * sends MMS (a phone whose app takes them).
 */
export function canCarry(
  message: Pick<MessageRecord, 'requestedDeviceId' | 'deviceActiveWithinHours' | 'content'>,
  modem: ModemCandidate,
  now: number,
): boolean {
  if (message.content.kind === 'mms' && modem.sendsMms !== true) return false;
  if (message.requestedDeviceId !== undefined && message.requestedDeviceId !== modem.deviceId) return false;
  const hours = message.deviceActiveWithinHours;
  if (hours !== undefined && hours > 0 && modem.lastSeen < now - hours * HOUR_MS) return false;
  return true;
}

/**
 * The built-in simulator is a demo that never takes a message meant for the real world once a real
 * modem or phone is in the pool (docs/decisions.md#the-simulator-is-a-demo): from then on it
 * carries only messages that name it by `deviceId`. Otherwise a modem that enumerates after
 * start-up would share the queue with it, and some messages would be reported Sent without ever
 * leaving the PC.
 */
export function simulatorMayCarry(
  message: Pick<MessageRecord, 'requestedDeviceId'>,
  simulatorDeviceId: string,
  realModemInPool: boolean,
): boolean {
  return !realModemInPool || message.requestedDeviceId === simulatorDeviceId;
}

export interface ModemLoad {
  /** Messages handed to the modem within the current limit window (or the last day). */
  sentInWindow: number;
  /** When it was last handed a message; -Infinity when never. */
  lastUsedAt: number;
}

/**
 * Order in which free modems choose their next message, so load spreads across a pool: the one
 * with the fewest sends in the window first (it is furthest from its limit), then the least
 * recently used, then the device id so the choice never depends on discovery order.
 */
export function compareModemLoad(
  left: ModemCandidate & ModemLoad,
  right: ModemCandidate & ModemLoad,
): number {
  if (left.sentInWindow !== right.sentInWindow) return left.sentInWindow - right.sentInWindow;
  if (left.lastUsedAt !== right.lastUsedAt) return left.lastUsedAt < right.lastUsedAt ? -1 : 1;
  return left.deviceId < right.deviceId ? -1 : left.deviceId > right.deviceId ? 1 : 0;
}

/** `canCarry` plus the simulator rule (`simulatorMayCarry`) for the benched simulators. */
export function carries(
  message: MessageRecord,
  modem: ModemCandidate,
  now: number,
  benched: ReadonlySet<string>,
): boolean {
  // Only simulators are ever benched, and only while a real modem is in the pool.
  return (
    canCarry(message, modem, now) && simulatorMayCarry(message, modem.deviceId, benched.has(modem.deviceId))
  );
}
