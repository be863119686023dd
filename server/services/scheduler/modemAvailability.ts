import type { DeviceDirectory } from '../../devices/pool/deviceDirectory.js';
import type { OutboundModem } from '../../devices/pool/outboundModem.js';
import { ModemParking } from './modemParking.js';

/** When a member's own limits let it take another message (`OutboundModem.availableAt`). */
export function ownLimitsAt(modem: OutboundModem, now: number): number {
  return modem.availableAt?.(now) ?? now;
}

/**
 * The pool as the scheduler sees it: which modems are ready, which are sending (one send per
 * modem at a time), which are parked after refusing a hand-over (`modemParking.ts`), and which
 * simulators are benched because a real modem joined.
 */
export class ModemAvailability {
  private readonly sending = new Set<string>();
  private readonly lastUsedAt = new Map<string, number>();
  private readonly parking = new ModemParking();
  /** Whether each device is a simulator, read from its view once per change of it. */
  private readonly simulated = new Map<string, boolean>();
  /** Undefined: not looked at since the last device change (a device view is costly to build). */
  private realModemJoined: boolean | undefined;

  constructor(private readonly devices: DeviceDirectory) {}

  /** Only a modem that says it is ready is handed a message. */
  ready(): OutboundModem[] {
    return this.devices.online().filter((modem) => modem.status === 'ready');
  }

  /** How many modems are sending now. */
  get sendingCount(): number {
    return this.sending.size;
  }

  isSending(deviceId: string): boolean {
    return this.sending.has(deviceId);
  }

  /** Not sending, not parked, and its own limits (a phone's pacing and in-flight bound) allow. */
  isFree(modem: OutboundModem, now: number): boolean {
    return (
      !this.sending.has(modem.deviceId) &&
      this.parkedAt(modem.deviceId) <= now &&
      ownLimitsAt(modem, now) <= now
    );
  }

  /** A hand-over to the modem starts now. */
  taken(deviceId: string, now: number): void {
    this.lastUsedAt.set(deviceId, now);
    this.sending.add(deviceId);
  }

  /** Its send was answered: it may take the next one. */
  released(deviceId: string): void {
    this.sending.delete(deviceId);
  }

  /** When it was last handed a message; -Infinity when never. */
  lastUsed(deviceId: string): number {
    return this.lastUsedAt.get(deviceId) ?? Number.NEGATIVE_INFINITY;
  }

  park(deviceId: string, now: number): void {
    this.parking.park(deviceId, now, this.isReady(deviceId));
  }

  /** A device changed; true when that ended its parking (it came back). */
  noteDeviceChange(deviceId: string): boolean {
    this.simulated.delete(deviceId);
    if (this.realModemJoined === false) this.realModemJoined = undefined;
    return this.parking.noteStatus(deviceId, this.isReady(deviceId));
  }

  /** Whether the device is the built-in simulator (its messages are marked as simulated). */
  isSimulated(deviceId: string): boolean {
    let simulated = this.simulated.get(deviceId);
    if (simulated === undefined) {
      simulated = this.devices.get(deviceId)?.modem.simulated === true;
      this.simulated.set(deviceId, simulated);
    }
    return simulated;
  }

  /** When the modem may be offered work again; -Infinity when it is not parked. */
  parkedAt(deviceId: string): number {
    return this.parking.parkedUntilOf(deviceId);
  }

  /**
   * The simulated modems among `online` that may carry only messages pinned to them, because a
   * real modem or phone is in the pool (`simulatorMayCarry`). Once one has been seen in this
   * run the rule holds while it recovers or is replugged, so the simulator never fills in.
   */
  benchedSimulators(online: readonly OutboundModem[]): ReadonlySet<string> {
    const simulated = online.filter((modem) => this.isSimulated(modem.deviceId));
    if (simulated.length === 0) return new Set();
    this.realModemJoined ??= this.devices
      .list()
      .some((device) => !device.modem.simulated && device.modem.status !== 'offline');
    return new Set(this.realModemJoined ? simulated.map((modem) => modem.deviceId) : []);
  }

  private isReady(deviceId: string): boolean {
    return this.ready().some((modem) => modem.deviceId === deviceId);
  }
}
