/**
 * Where routing rules and apps let messages go: a modem, or one SIM slot of it. Without
 * `simNumber` the target is every slot of the modem.
 */
export interface SimTarget {
  /** The modem's persistent id (devices/deviceIdentity.ts). */
  deviceId: string;
  /** SIM slot, 1-based; absent: every slot. */
  simNumber?: number;
}

/** A modem as routing sees it: its id and how many SIM slots it has. */
export interface ModemSlots {
  deviceId: string;
  simSlots: number;
}

/**
 * How the API and the stored documents write a target: a modem's id alone (every slot), as
 * routing rules and apps named modems before slots could be named, or the object for one slot.
 */
export type SimTargetForm = string | SimTarget;

export function toSimTarget(form: SimTargetForm): SimTarget {
  if (typeof form === 'string') return { deviceId: form };
  return form.simNumber === undefined
    ? { deviceId: form.deviceId }
    : { deviceId: form.deviceId, simNumber: form.simNumber };
}

/** The form written back: a whole modem as its id, so clients that know only ids keep reading it. */
export function simTargetForm(target: SimTarget): SimTargetForm {
  return target.simNumber === undefined
    ? target.deviceId
    : { deviceId: target.deviceId, simNumber: target.simNumber };
}

/** Whether the targets let slot `simNumber` of modem `deviceId` carry a message. */
export function targetsAllow(targets: readonly SimTarget[], deviceId: string, simNumber: number): boolean {
  return targets.some(
    (target) =>
      target.deviceId === deviceId && (target.simNumber === undefined || target.simNumber === simNumber),
  );
}

/** Whether the targets name any slot of modem `deviceId`. */
export function targetsName(targets: readonly SimTarget[], deviceId: string): boolean {
  return targets.some((target) => target.deviceId === deviceId);
}

/** "A" or "A (SIM 2)": how hold reasons and "Try" name a target after the word "modem". */
export function targetLabel(target: SimTarget): string {
  return target.simNumber === undefined ? target.deviceId : `${target.deviceId} (SIM ${target.simNumber})`;
}
