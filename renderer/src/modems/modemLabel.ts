import type { DeviceRecord } from '../api/types.js';
import { formatRelative, toEpochMs } from '../format/timeFormat.js';

/**
 * A device that never answered (a phone whose app was never reached): the gateway reports its
 * `lastSeen` as the epoch, and nothing it shows about its SIMs was read from it.
 */
export function neverSeen(device: DeviceRecord): boolean {
  return !(toEpochMs(device.lastSeen) > 0);
}

/** "3 min ago", or "never seen" for a device that never answered. */
export function lastSeenText(device: DeviceRecord, nowMs: number): string {
  return neverSeen(device) ? 'never seen' : formatRelative(device.lastSeen, nowMs);
}

/**
 * How a modem is named wherever it shows: its name, its SIM and its port. Two modems of the same
 * model carry the same default name, and both SIMs are "SIM 1", so the port (which differs) and
 * the SIM's own number (when the network told it) are what tell them apart.
 */
export function modemLabel(device: DeviceRecord): string {
  // A phone with several SIMs is not any one of them.
  const sim = neverSeen(device) || device.simCards.length > 1 ? undefined : device.simCards[0];
  const simText = sim ? `SIM ${sim.simNumber}${sim.phoneNumber ? ` ${sim.phoneNumber}` : ''}` : undefined;
  return [device.name, simText, device.modem?.port].filter(Boolean).join(' · ');
}

/**
 * The label of the device with this id, or the id itself for one the gateway does not know
 * (forgotten, or the gateway's own id that upstream clients see on messages no modem took yet).
 */
export function modemLabelById(devices: readonly DeviceRecord[] | undefined, id: string | undefined): string {
  if (id === undefined) return '—';
  const device = devices?.find((entry) => entry.id === id);
  return device ? modemLabel(device) : id;
}

/** The modem a message went through, when it is one the gateway knows. */
export function knownModem(
  devices: readonly DeviceRecord[] | undefined,
  id: string | undefined,
): DeviceRecord | undefined {
  return id === undefined ? undefined : devices?.find((device) => device.id === id);
}
