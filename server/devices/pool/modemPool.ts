import type { Clock } from '../../clock/clock.js';
import type { DeviceInfo, ModemDetails } from '../../contract/domain/device.js';
import type { RefusedPort } from '../../contract/domain/portRefusal.js';
import type { SmsServicePreference } from '../../contract/domain/smsServicePreference.js';
import { describeError, ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { SerialPortInfo } from '../transport/portDiscovery.js';
import { portRoleOf, probeOrder } from '../transport/portLayouts.js';
import { portAccessFix } from '../transport/portPermission.js';
import { capabilityNames, type DeviceCapabilities, type UssdAnswer } from './capabilities.js';
import type { DeviceDirectory } from './deviceDirectory.js';
import type { OutboundModem } from './outboundModem.js';
import type { PoolMember } from './poolMember.js';
import {
  type ModemSource,
  type SerialAccess,
  sameUsbDevice,
  serialModemSource,
  usbIdentityOf,
} from './serialModemSource.js';

/**
 * A device the gateway has seen, kept so the list shows it while it is unplugged: its last known
 * view (the live status replaces `modem.status` while a driver runs).
 */
export type KnownDevice = DeviceInfo;

/** Persistence of the known devices; the composition root backs it with lowdb. */
export interface KnownDeviceStore {
  load(): KnownDevice[];
  save(devices: KnownDevice[]): Promise<void>;
}

export interface ModemPoolOptions {
  clock: Clock;
  logger: Logger;
  knownDevices: KnownDeviceStore;
  /**
   * The driver for a serial or simulated modem source; the composition root hands the AT modem
   * driver (`server/devices/modem/`) with its sessions, sinks and timing.
   */
  createDriver: (source: ModemSource) => PoolMember;
  /** The last balance reading of a device, shown with its details. */
  balanceOf?: (deviceId: string) => ModemDetails['balance'];
  serial: SerialAccess & {
    /** `--modem path[:baud]`. Ports are probed only through `discover` (the composition root decides). */
    configured: { path: string; baudRate: number }[];
    /** Baud rate for discovered ports (USB modems ignore it). Default 115200. */
    defaultBaudRate?: number;
  };
}

interface Member {
  driver: PoolMember;
  /** The serial (or simulated) source; absent for a network member such as a HiLink stick. */
  source?: ModemSource;
  /** The id the known-device record was written under (changes once, when the IMEI is read). */
  recordedId?: string;
  unsubscribe: () => void;
}

/**
 * The modem pool: one driver per configured, discovered or simulated modem, and the device
 * directory the API, scheduler and UI read. Knows devices that are offline too (persisted).
 */
export class ModemPool implements DeviceDirectory {
  private readonly members: Member[] = [];
  private readonly known = new Map<string, KnownDevice>();
  private readonly listeners = new Set<(deviceId: string) => void>();
  private readonly logger: Logger;
  private saving: Promise<void> = Promise.resolve();
  /** USB ports discovery could not open for lack of permission, with what to do, by path. */
  private readonly refused = new Map<string, RefusedPort>();
  private readonly refusalListeners = new Set<() => void>();

  constructor(private readonly options: ModemPoolOptions) {
    this.logger = options.logger.child('pool');
    for (const device of options.knownDevices.load()) this.known.set(device.id, device);
  }

  /** Starts the configured serial modems (their first attempt; retries go on in the background). */
  /**
   * Opens the configured ports side by side: a modem that is slow to answer, or silent, holds
   * up no other. Resolves once each has come up or failed.
   */
  async start(): Promise<void> {
    const { serial } = this.options;
    if (serial.configured.length === 0) return;
    const ports = await this.listPortsSafely();
    await Promise.all(
      serial.configured.map((configured) => {
        const listed = ports.find((port) => port.path === configured.path);
        const initial: Parameters<typeof serialModemSource>[1] = { ...configured, probed: true };
        const identity = listed ? usbIdentityOf(listed) : undefined;
        if (identity) initial.usb = identity;
        const role = listed ? portRoleOf(listed) : undefined;
        if (role) initial.role = role;
        return this.addModem(serialModemSource(serial, initial));
      }),
    );
  }

  /** Every modem checks at once that it still answers (the PC woke from sleep). */
  recheck(): void {
    for (const member of this.members) member.driver.recheck?.();
  }

  /** USB ports discovery could not open for lack of permission, and the fix: for the API, GET /health, the desktop. */
  refusedPorts(): RefusedPort[] {
    return [...this.refused.values()];
  }

  /** Calls `listener` when the refused ports change. */
  onRefusedPortsChange(listener: () => void): () => void {
    this.refusalListeners.add(listener);
    return () => this.refusalListeners.delete(listener);
  }

  /** These ports are gone (unplugged): what discovery said about them no longer holds. */
  forgetPorts(paths: readonly string[]): void {
    let forgotten = false;
    for (const path of paths) forgotten = this.refused.delete(path) || forgotten;
    if (forgotten) this.refusedPortsChanged();
  }

  /**
   * A USB port the OS refused is most likely the modem the user plugged in; a built-in UART
   * (/dev/ttyS*) refused the same way is not worth a word.
   */
  private noteRefusal(port: SerialPortInfo, error: unknown): void {
    if (!isGatewayError(error, ErrorCode.TransportAccessDenied) || !usbIdentityOf(port)) {
      this.logger.debug('probe failed', { path: port.path, error: describeError(error) });
      return;
    }
    if (this.refused.has(port.path)) return;
    this.logger.warn(error.message, { path: port.path });
    const fix = portAccessFix(port.path);
    this.refused.set(port.path, { path: port.path, code: 'TransportAccessDenied', ...(fix ? { fix } : {}) });
    this.refusedPortsChanged();
  }

  private noteOpened(path: string): void {
    if (this.refused.delete(path)) this.refusedPortsChanged();
  }

  private refusedPortsChanged(): void {
    for (const listener of this.refusalListeners) listener();
  }

  /** True when a member uses this port, or another port of the same USB device. */
  claims(port: SerialPortInfo): boolean {
    const usb = usbIdentityOf(port);
    return this.members.some(
      (member) =>
        member.source?.port === port.path || (usb !== undefined && sameUsbDevice(usb, member.source?.usb)),
    );
  }

  /**
   * Probes `candidates` (default: every listed port) that are not in use yet. A USB modem exposes
   * several ports (AT, PPP, diagnostics, GPS): they are grouped by USB identity and the first
   * that answers `AT` is used. Resolves with the ports that were probed and did not answer.
   */
  async discover(candidates?: SerialPortInfo[]): Promise<SerialPortInfo[]> {
    const { serial } = this.options;
    const ports = candidates ?? (await this.listPortsSafely());
    const silent: SerialPortInfo[] = [];
    const groups = new Map<string, SerialPortInfo[]>();
    for (const port of ports) {
      if (this.claims(port)) continue;
      const usb = usbIdentityOf(port);
      const key = usb ? JSON.stringify(usb) : `path:${port.path}`;
      groups.set(key, [...(groups.get(key) ?? []), port]);
    }
    let added = 0;
    for (const group of groups.values()) {
      for (const port of probeOrder(group)) {
        const baudRate = serial.defaultBaudRate ?? 115_200;
        const outcome = await serial
          .probe(() => serial.createTransport({ path: port.path, baudRate }))
          .then(
            (answered) => (answered ? 'modem' : 'silent'),
            (error: unknown) => {
              this.noteRefusal(port, error);
              return 'refused';
            },
          );
        if (outcome !== 'modem') {
          if (outcome === 'silent') this.noteOpened(port.path);
          silent.push(port);
          continue;
        }
        const initial: Parameters<typeof serialModemSource>[1] = { path: port.path, baudRate, probed: true };
        const usb = usbIdentityOf(port);
        if (usb) initial.usb = usb;
        const role = portRoleOf(port);
        if (role) initial.role = role;
        this.logger.info('modem found', { path: port.path, role, ...usb });
        await this.addModem(serialModemSource(serial, initial));
        // Only now: the window goes from "may not open" straight to the modem, never "plug it in".
        this.noteOpened(port.path);
        added++;
        break;
      }
    }
    if (added > 0) this.logger.info(`${added} modem(s) added`);
    return silent;
  }

  /** Adds a modem from any source (serial port, simulated) and starts its driver. */
  async addModem(source: ModemSource): Promise<PoolMember> {
    return this.addMember(this.options.createDriver(source), source);
  }

  /**
   * Adds and starts any kind of member. A second way to the same device (another port, or
   * listed twice) is dropped: the first member keeps it.
   */
  async addMember(driver: PoolMember, source?: ModemSource): Promise<PoolMember> {
    const member: Member = { driver, unsubscribe: () => undefined };
    if (source) member.source = source;
    member.unsubscribe = driver.onChange(() => this.changed(member));
    this.members.push(member);
    await driver.start();
    if (!this.members.includes(member)) {
      // Dropped while it came up: an earlier way to the same modem keeps it.
      return this.members.find((other) => other.driver.deviceId === driver.deviceId)?.driver ?? driver;
    }
    const twin = this.members.find((other) => other !== member && other.driver.deviceId === driver.deviceId);
    if (twin) {
      // The same modem reached through a second port (or listed twice): the member added first
      // keeps it, whichever came up first (ports start side by side).
      const [kept, dropped] =
        this.members.indexOf(twin) < this.members.indexOf(member) ? [twin, member] : [member, twin];
      this.logger.info('second way to an already attached modem ignored', { port: dropped.driver.port });
      await this.remove(dropped);
      if (kept === twin) return twin.driver;
    }
    this.changed(member);
    return driver;
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.splice(0).map((member) => this.stopMember(member)));
    await this.saving;
  }

  list(): DeviceInfo[] {
    const live = new Map(this.members.map((member) => [member.driver.deviceId, member.driver]));
    const devices = [...this.known.values()].map((record) => this.view(record, live.get(record.id)));
    return devices.sort((left, right) => left.createdAt - right.createdAt || left.id.localeCompare(right.id));
  }

  ids(): string[] {
    return [...this.known.keys()];
  }

  get(id: string): DeviceInfo | undefined {
    const record = this.known.get(id);
    return record ? this.view(record, this.driver(id)) : undefined;
  }

  online(): OutboundModem[] {
    return this.members.map((member) => member.driver).filter((driver) => driver.status === 'ready');
  }

  async forget(id: string): Promise<boolean> {
    const members = this.members.filter((member) => member.driver.deviceId === id);
    const known = this.known.delete(id);
    for (const member of members) await this.remove(member);
    if (!known && members.length === 0) return false;
    await this.persist();
    this.notify(id);
    return true;
  }

  async refreshInbox(deviceId?: string): Promise<void> {
    if (deviceId !== undefined) {
      await this.capability(deviceId, 'storage').refreshInbox();
      return;
    }
    const results = await Promise.allSettled(
      this.members
        .filter((member) => member.driver.status === 'ready')
        .flatMap((member) => member.driver.capabilities.storage ?? [])
        .map((storage) => storage.refreshInbox()),
    );
    for (const result of results) {
      if (result.status === 'rejected') {
        this.logger.warn('inbox refresh failed', { error: describeError(result.reason) });
      }
    }
  }

  /**
   * Names a device as staff call it ("Front desk"), kept under its IMEI-derived id so the name
   * follows the modem across ports and restarts; false when the id is unknown.
   */
  async rename(deviceId: string, name: string): Promise<boolean> {
    const record = this.known.get(deviceId);
    if (!record) return false;
    this.known.set(deviceId, { ...record, name, updatedAt: this.options.clock.now() });
    await this.persist();
    this.notify(deviceId);
    return true;
  }

  async enterPin(deviceId: string, pin: string): Promise<void> {
    await this.capability(deviceId, 'simPin').enterPin(pin);
  }

  async setSmsService(deviceId: string, preference: SmsServicePreference): Promise<void> {
    await this.capability(deviceId, 'smsService').setSmsService(preference);
  }

  async ussd(deviceId: string, text: string): Promise<UssdAnswer> {
    return this.capability(deviceId, 'ussd').ussd(text);
  }

  async cancelUssd(deviceId: string): Promise<void> {
    await this.capability(deviceId, 'ussd').cancelUssd();
  }

  onChange(listener: (deviceId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private requireDriver(deviceId: string): PoolMember {
    const driver = this.driver(deviceId);
    if (driver) return driver;
    if (this.known.has(deviceId)) {
      throw new GatewayError(ErrorCode.ModemUnavailable, `device ${deviceId} is not connected`);
    }
    throw new GatewayError(ErrorCode.NotFound, `device ${deviceId} not found`);
  }

  /** A connected device's capability; InvalidState when its kind has none such. */
  private capability<
    Name extends Exclude<keyof DeviceCapabilities, 'calls' | 'deliveryReports' | 'atLog' | 'mms'>,
  >(deviceId: string, name: Name): NonNullable<DeviceCapabilities[Name]> {
    const capability = this.requireDriver(deviceId).capabilities[name];
    if (capability === undefined) {
      throw new GatewayError(ErrorCode.InvalidState, `device ${deviceId} has no ${capabilityWords[name]}`);
    }
    return capability as NonNullable<DeviceCapabilities[Name]>;
  }

  private driver(deviceId: string): PoolMember | undefined {
    return this.members.find((member) => member.driver.deviceId === deviceId)?.driver;
  }

  private view(record: KnownDevice, driver: PoolMember | undefined): DeviceInfo {
    const balance = this.options.balanceOf?.(record.id);
    const withBalance = (modem: ModemDetails): ModemDetails => (balance ? { ...modem, balance } : modem);
    if (!driver) {
      return {
        ...record,
        modem: withBalance({
          ...record.modem,
          status: 'offline',
          statusDetail: 'Not connected.',
          statusReason: 'not-connected',
        }),
      };
    }
    return {
      ...record,
      lastSeen: Math.max(record.lastSeen, driver.lastSeen),
      simCards: driver.simCards?.() ?? [driver.simCard()],
      modem: withBalance(detailsOf(driver)),
    };
  }

  /** Keeps the known-device record in step with the driver; saves when something lasting changed. */
  private changed(member: Member): void {
    if (!this.members.includes(member)) return;
    const { driver } = member;
    const id = driver.deviceId;
    const now = this.options.clock.now();
    if (member.recordedId !== undefined && member.recordedId !== id) {
      // The IMEI was read: the provisional (port-based) record gives way to the lasting one.
      this.known.delete(member.recordedId);
    }
    member.recordedId = id;
    const previous = this.known.get(id);
    const details = detailsOf(driver);
    const record: KnownDevice = {
      id,
      name: previous?.name ?? deviceName(details),
      createdAt: previous?.createdAt ?? now,
      updatedAt: previous?.updatedAt ?? now,
      lastSeen: Math.max(previous?.lastSeen ?? 0, driver.lastSeen),
      simCards: driver.simCards?.() ?? [driver.simCard()],
      modem: lasting(details),
    };
    if (previous?.name && deviceName(previous.modem) === previous.name && details.model) {
      record.name = deviceName(details);
    }
    const changedLastingly =
      !previous || JSON.stringify(lastingRecord(previous)) !== JSON.stringify(lastingRecord(record));
    if (changedLastingly) record.updatedAt = now;
    this.known.set(id, record);
    if (changedLastingly) {
      this.persist().catch((error: unknown) => {
        this.logger.warn('saving known devices failed', { error: describeError(error) });
      });
    }
    this.notify(id);
  }

  private notify(deviceId: string): void {
    for (const listener of this.listeners) listener(deviceId);
  }

  private persist(): Promise<void> {
    const next = this.saving.then(() => this.options.knownDevices.save([...this.known.values()]));
    this.saving = next.catch(() => undefined);
    return next;
  }

  private async remove(member: Member): Promise<void> {
    const index = this.members.indexOf(member);
    if (index >= 0) this.members.splice(index, 1);
    await this.stopMember(member);
  }

  private async stopMember(member: Member): Promise<void> {
    member.unsubscribe();
    await member.driver.stop();
  }

  private async listPortsSafely(): Promise<SerialPortInfo[]> {
    try {
      return await this.options.serial.listPorts();
    } catch (error) {
      this.logger.warn('listing serial ports failed', { error: describeError(error) });
      return [];
    }
  }
}

const capabilityWords = {
  ussd: 'USSD',
  simPin: 'SIM PIN entry',
  smsService: 'SMS service setting',
  storage: 'message storage to read',
} as const;

/** A member's details with the names of its capabilities, for the view and the known record. */
function detailsOf(driver: PoolMember): ModemDetails {
  return { ...driver.details(), capabilities: capabilityNames(driver.capabilities) };
}

function deviceName(details: Pick<ModemDetails, 'manufacturer' | 'model' | 'port'>): string {
  const name = [details.manufacturer, details.model].filter(Boolean).join(' ');
  return name || details.port;
}

/** Details worth persisting: identity and where it was, not the moment-to-moment radio state. */
function lasting(details: ModemDetails): ModemDetails {
  const {
    signal: _signal,
    statusDetail: _detail,
    statusReason: _reason,
    relayLink: _relayLink,
    ...rest
  } = details;
  return rest;
}

function lastingRecord(record: KnownDevice): unknown {
  const { lastSeen: _lastSeen, updatedAt: _updatedAt, ...rest } = record;
  return {
    ...rest,
    modem: { ...rest.modem, status: undefined, operator: undefined, registration: undefined },
  };
}
