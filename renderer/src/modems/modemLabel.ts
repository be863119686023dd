import type { DeviceRecord } from '../api/types.js';

/**
 * How a modem is named wherever it shows: its name, its SIM and its port. Two modems of the same
 * model carry the same default name, and both SIMs are "SIM 1", so the port (which differs) and
 * the SIM's own number (when the network told it) are what tell them apart.
 */
export function modemLabel(device: DeviceRecord): string {
  const sim = device.simCards[0];
  const simText = sim ? `SIM ${sim.simNumber}${sim.phoneNumber ? ` ${sim.phoneNumber}` : ''}` : undefined;
  return [device.name, simText, device.modem?.port].filter(Boolean).join(' · ');
}

/** The label of the device with this id, or the id itself for a device the gateway forgot. */
export function modemLabelById(devices: readonly DeviceRecord[] | undefined, id: string | undefined): string {
  if (id === undefined) return '—';
  const device = devices?.find((entry) => entry.id === id);
  return device ? modemLabel(device) : id;
}
