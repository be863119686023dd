import type { DeviceInfo } from '../../contract/domain/device.js';
import type { SmsServicePreference } from '../../contract/domain/smsServicePreference.js';
import { isTcpAddress, parseTcpAddress } from '../../contract/domain/tcpAddress.js';
import type { TrafficLine } from '../../contract/domain/trafficLine.js';
import type { HiLinkAdapter } from '../../devices/hilink/hilinkDetection.js';
import type { NetworkModems } from '../../devices/modem/networkModems.js';
import type { NewPhone, PhoneRegistry } from '../../devices/phone/phoneRegistry.js';
import type { ModemPool } from '../../devices/pool/modemPool.js';
import { type SerialAccess, serialModemSource } from '../../devices/pool/serialModemSource.js';
import type { SimulatorRoster } from '../../devices/simulator/simulatorRoster.js';
import { checkNetworkTarget, hostOfUrl } from '../../devices/transport/networkTargets.js';
import type { SerialPortInfo } from '../../devices/transport/portDiscovery.js';
import { checkSerialPortPath } from '../../devices/transport/serialPortCheck.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/**
 * Adding and running the devices of the pool as staff do it on the Modems screen: serial
 * modems by port or serial server, HiLink sticks, Android phones, a modem's name, SMS domain,
 * AT log, and a simulated SMS or failed send for the built-in simulator. Every address a
 * caller names is checked here (`networkTargets.ts`), whichever way in it came by.
 */
export interface DeviceAdministration {
  serialPorts(): Promise<(SerialPortInfo & { inUse: boolean })[]>;
  /** A serial port path, or `tcp://host:port` for a modem behind a serial server (kept for next starts). */
  addSerialModem(path: string, baudRate: number): Promise<DeviceInfo>;
  addHiLink(url: string): Promise<DeviceInfo>;
  addPhone(phone: NewPhone): Promise<DeviceInfo>;
  /** The HiLink stick found on an adapter of this PC and not added yet, for the status to offer. */
  unaddedHiLinkAdapter(): HiLinkAdapter | undefined;
  atLog(deviceId: string, limit: number): TrafficLine[] | undefined;
  setSmsService(deviceId: string, preference: SmsServicePreference): Promise<void>;
  /** Sets the name staff know a modem by; false when the device is unknown. */
  rename(deviceId: string, name: string): Promise<boolean>;
  /**
   * Delivers an SMS to a built-in simulated modem as if the network sent it; 409 for a real
   * modem, on which nothing may fake a message.
   */
  simulateIncoming(deviceId: string, message: { sender: string; text: string }): void;
  /**
   * Has a built-in simulated modem refuse its next `count` sends (to `phoneNumber` only, if
   * given) with +CMS ERROR: `cmsCode`, so staff see a failure before a real one happens; 409
   * for a real modem.
   */
  simulateSendFailure(
    deviceId: string,
    failure: { cmsCode: number; count: number; phoneNumber?: string },
  ): void;
}

export function createDeviceAdministration(deps: {
  pool: ModemPool;
  serial: SerialAccess;
  networkModems: NetworkModems;
  addHiLinkMember: (url: string) => ReturnType<ModemPool['addMember']>;
  hilinkAdapter: HiLinkAdapter | undefined;
  phones: PhoneRegistry;
  simulators: SimulatorRoster;
  /** The last AT lines of a port. */
  atLogOfPort: (port: string, limit: number) => TrafficLine[] | undefined;
  /** `network.allow_private_targets`, read at each request. */
  allowPrivateTargets: () => boolean;
}): DeviceAdministration {
  const { pool, serial, hilinkAdapter } = deps;
  const admitTarget = async (host: string | undefined, field: string): Promise<void> => {
    if (host !== undefined)
      await checkNetworkTarget(host, field, { allowPrivate: deps.allowPrivateTargets() });
  };
  /** The simulator behind a device; Conflict naming `what` for a real modem. */
  const simulatorOf = (deviceId: string, what: string) => {
    const simulator = deps.simulators.byPort(pool.get(deviceId)?.modem.port ?? '');
    if (!simulator) {
      throw new GatewayError(
        ErrorCode.Conflict,
        `device ${deviceId} is a real modem: only a simulated modem can ${what}`,
        {
          field: 'id',
        },
      );
    }
    return simulator;
  };
  const joined = (deviceId: string, what: string): DeviceInfo => {
    const device = pool.get(deviceId);
    if (!device) throw new Error(`${what} did not register`);
    return device;
  };
  return {
    async serialPorts() {
      const inUse = new Set(pool.list().map((device) => device.modem.port));
      return (await serial.listPorts()).map((port) => ({ ...port, inUse: inUse.has(port.path) }));
    },
    async addSerialModem(path, baudRate) {
      // A serial server's address names no file here, so the path rule is for every other
      // path; the schema has checked the address's form.
      if (isTcpAddress(path)) await admitTarget(parseTcpAddress(path)?.host, 'path');
      const driver = isTcpAddress(path)
        ? await deps.networkModems.add(path)
        : await checkSerialPortPath(path, { listPorts: serial.listPorts }).then(() =>
            pool.addModem(serialModemSource(serial, { path, baudRate })),
          );
      return joined(driver.deviceId, `modem on ${path}`);
    },
    async addHiLink(url) {
      // The stick found on an adapter of this PC is the one private address known to be a
      // HiLink stick, and the status offers it: no setting needed for it.
      if (url.replace(/\/$/, '') !== hilinkAdapter?.url) await admitTarget(hostOfUrl(url), 'url');
      const member = await deps.addHiLinkMember(url);
      return joined(member.deviceId, `HiLink stick at ${url}`);
    },
    async addPhone(phone) {
      if (phone.serial === undefined && phone.url !== undefined)
        await admitTarget(hostOfUrl(phone.url), 'url');
      const member = await deps.phones.add(phone);
      return joined(member.deviceId, `phone at ${member.port}`);
    },
    unaddedHiLinkAdapter: () =>
      hilinkAdapter && !pool.list().some((device) => device.modem.port === hilinkAdapter.url)
        ? hilinkAdapter
        : undefined,
    atLog(deviceId, limit) {
      const port = pool.get(deviceId)?.modem.port;
      return port === undefined ? undefined : deps.atLogOfPort(port, limit);
    },
    setSmsService: (deviceId, preference) => pool.setSmsService(deviceId, preference),
    rename: (deviceId, name) => pool.rename(deviceId, name),
    simulateIncoming(deviceId, message) {
      simulatorOf(deviceId, 'receive a simulated SMS').injectIncoming(message);
    },
    simulateSendFailure(deviceId, failure) {
      simulatorOf(deviceId, 'fail a send on request').failSends(
        failure.cmsCode,
        failure.count,
        failure.phoneNumber,
      );
    },
  };
}
