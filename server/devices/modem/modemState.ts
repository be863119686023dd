import type { Clock } from '../../clock/clock.js';
import type {
  DeviceStatusReason,
  ModemDetails,
  ModemStatus,
  SimCardInfo,
  StorageUse,
} from '../../contract/domain/device.js';
import type { Logger } from '../../logging/logger.js';
import { deriveDeviceId } from '../pool/deviceIdentity.js';
import type { ModemSource } from '../pool/serialModemSource.js';
import { describeModem, describeSimCard } from './modemDetails.js';
import type { HealthReading, RadioCapabilities } from './modemHealth.js';
import type { MessagingSetup, ModemIdentity, SimIdentity } from './modemSetup.js';
import { combinedRegistration, notRegisteredExplanation } from './networkState.js';
import { genericProfile, type QuirkProfile } from './quirks.js';

/**
 * What the driver has learned about its modem. Bring-up (`modemBringUp.ts`) fills it in step by
 * step, so an unsolicited code that arrives meanwhile is already read with the right quirks.
 */
export interface ModemKnowledge {
  identity: ModemIdentity;
  quirks: QuirkProfile;
  sim: SimIdentity;
  /** Set once messaging is configured: where messages are stored and which indications come. */
  setup?: MessagingSetup;
  health: HealthReading;
  radio: RadioCapabilities;
  /** The TE character set (+CSCS) text fields come in; undefined when the modem did not say. */
  charset?: string;
  storageUse: StorageUse[];
  /** When a memory status reports land in was last found full, and which: reports were refused. */
  reportsRefused?: { memory: string; at: number };
}

/**
 * A driver's status, its modem's identity and what it knows, with the listeners told of every
 * change. No I/O: the driver and its collaborators read and set it.
 */
export class ModemState {
  readonly known: ModemKnowledge = {
    identity: {},
    quirks: genericProfile,
    sim: {},
    health: { registrations: {} },
    radio: { smsServiceOptions: [] },
    storageUse: [],
  };
  private status_: ModemStatus = 'starting';
  private detail?: string;
  private reason?: DeviceStatusReason;
  private identifiedId?: string;
  private readonly fallbackId: string;
  private lastSeen_ = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly source: ModemSource,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.fallbackId = deriveDeviceId({ port: source.port, usbSerialNumber: source.usb?.serialNumber });
  }

  /** Derived from the IMEI once read (then fixed), else the USB serial number, else the port. */
  get deviceId(): string {
    return this.identifiedId ?? this.fallbackId;
  }

  get status(): ModemStatus {
    return this.status_;
  }

  /** When the modem last answered or sent anything (clock ms; 0 before it ever did). */
  get lastSeen(): number {
    return this.lastSeen_;
  }

  /** Initialised, SIM unlocked, answering: registered or not. */
  inService(): boolean {
    return this.status_ === 'ready' || this.status_ === 'no-network';
  }

  /** The device id follows the first IMEI read and then stays, whatever port the modem moves to. */
  identified(imei: string | undefined): void {
    if (imei && !this.identifiedId) this.identifiedId = deriveDeviceId({ imei, port: this.source.port });
  }

  /** A sign of life (`lastSeen`). */
  touch(): void {
    this.lastSeen_ = this.clock.now();
  }

  /** Called on every status or detail change. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  set(status: ModemStatus, detail?: string, reason?: DeviceStatusReason): void {
    if (this.status_ === status && this.detail === detail && this.reason === reason) return;
    if (this.status_ !== status)
      this.logger.info(`status ${this.status_} → ${status}`, detail ? { detail } : undefined);
    this.status_ = status;
    this.detail = detail;
    this.reason = reason;
    this.changed();
  }

  /**
   * 'ready' when registered, else 'no-network' with the reason in words (its radio is off, or
   * it is not registered): a modem registered to no network cannot send, every attempt would
   * come back as a bare +CMS ERROR. True when it has just come back from 'no-network' (messages
   * stored meanwhile are to be read now).
   */
  settleRegistration(): boolean {
    const { radioPower } = this.known.health;
    if (radioPower?.on === false) {
      this.set(
        'no-network',
        `The modem's radio is off (+CFUN: ${radioPower.fun}, flight mode) and did not switch on when asked: no message ` +
          'can be sent or received. Check for a radio or flight-mode switch on the modem, or restart it.',
        'radio-off',
      );
      return false;
    }
    const { registration, registered } = combinedRegistration(this.known.health.registrations);
    if (registered === false) {
      this.set('no-network', notRegisteredExplanation(registration, this.known.radio.supported));
      return false;
    }
    const wasWaiting = this.status_ === 'no-network';
    this.set('ready');
    return wasWaiting;
  }

  /** Tells the listeners that something they show changed. */
  changed(): void {
    for (const listener of this.listeners) listener();
  }

  details(): ModemDetails {
    return describeModem({
      ...this.known,
      source: this.source,
      status: this.status_,
      statusDetail: this.detail,
      statusReason: this.reason,
    });
  }

  simCard(): SimCardInfo {
    return describeSimCard(this.known.sim, this.known.health);
  }
}
