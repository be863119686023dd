import type { DeviceRecord, SimTargetForm } from '../api/types.js';
import { modemLabelById } from './modemLabel.js';

/**
 * Routing rules and apps name modems, or single SIM slots of modems (a modem's id alone: every
 * slot; `{deviceId, simNumber}`: one). The choice edits such a list; a modem with all of its
 * slots chosen one by one is written as the modem.
 */
export const targetDevice = (target: SimTargetForm): string =>
  typeof target === 'string' ? target : target.deviceId;

const wholeModem = (target: SimTargetForm, deviceId: string) =>
  typeof target === 'string'
    ? target === deviceId
    : target.deviceId === deviceId && target.simNumber === undefined;

/** Whether the targets name the whole modem (`slot` absent) or, with `slot`, let that slot carry. */
export function isChosen(targets: readonly SimTargetForm[], deviceId: string, slot?: number): boolean {
  return targets.some(
    (target) =>
      wholeModem(target, deviceId) ||
      (slot !== undefined &&
        typeof target !== 'string' &&
        target.deviceId === deviceId &&
        target.simNumber === slot),
  );
}

/** The targets with the whole modem on or off (its single slots go either way). */
export function withModem(targets: readonly SimTargetForm[], deviceId: string, on: boolean): SimTargetForm[] {
  const others = targets.filter((target) => targetDevice(target) !== deviceId);
  return on ? [...others, deviceId] : others;
}

/** The targets with one slot of a modem of `slotCount` slots on or off. */
export function withSlot(
  targets: readonly SimTargetForm[],
  deviceId: string,
  slot: number,
  slotCount: number,
  on: boolean,
): SimTargetForm[] {
  const slots = Array.from({ length: slotCount }, (_, index) => index + 1).filter((each) =>
    each === slot ? on : isChosen(targets, deviceId, each),
  );
  const others = targets.filter((target) => targetDevice(target) !== deviceId);
  if (slots.length === slotCount) return [...others, deviceId];
  return [...others, ...slots.map((simNumber) => ({ deviceId, simNumber }))];
}

/** How many SIM slots a device has: those it reports, at least one. */
export const slotCount = (device: DeviceRecord): number => Math.max(1, device.simCards.length);

/** "Shop phone · SIM 2 +4915…": one slot of a modem, by its SIM's own number when known. */
export function slotLabel(
  devices: readonly DeviceRecord[] | undefined,
  deviceId: string,
  slot: number,
): string {
  const device = devices?.find((entry) => entry.id === deviceId);
  const sim = device?.simCards.find((card) => card.simNumber === slot);
  return [device?.name ?? deviceId, `SIM ${slot}${sim?.phoneNumber ? ` ${sim.phoneNumber}` : ''}`].join(
    ' · ',
  );
}

/** The targets as the screens list them: a whole modem by its label, a slot by `slotLabel`. */
export function targetsText(
  devices: readonly DeviceRecord[] | undefined,
  targets: readonly SimTargetForm[],
): string {
  return targets
    .map((target) =>
      typeof target === 'string' || target.simNumber === undefined
        ? modemLabelById(devices, targetDevice(target))
        : slotLabel(devices, target.deviceId, target.simNumber),
    )
    .join(', ');
}
