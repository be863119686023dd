import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { DeliveryReport } from '../../server/contract/domain/device.js';
import { encodeStatusReport } from '../../server/contract/pdu/index.js';
import { AtSession } from '../../server/devices/at/atSession.js';
import { ModemDriver } from '../../server/devices/modem/modemDriver.js';
import { deriveDeviceId } from '../../server/devices/pool/deviceIdentity.js';
import { type KnownDevice, ModemPool } from '../../server/devices/pool/modemPool.js';
import { probeForModem } from '../../server/devices/pool/modemProbe.js';
import type { PoolMember } from '../../server/devices/pool/poolMember.js';
import { createMemoryLink, type MemoryLink } from '../../server/devices/transport/memoryTransport.js';
import type { SerialPortInfo } from '../../server/devices/transport/portDiscovery.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { ScriptedModem, standardReplies } from '../support/scriptedModem.js';

interface FakePort {
  info: SerialPortInfo;
  /** IMEI of the modem answering AT on this port; absent: a non-AT interface (PPP, GPS…). */
  imei?: string;
}

/** A machine's USB ports: modems plug and unplug, their AT interfaces answer through MemoryLinks. */
class FakeUsbBus {
  ports: FakePort[] = [];
  readonly links = new Map<string, MemoryLink>();
  readonly modems = new Map<string, ScriptedModem>();
  /** Ports whose modem says nothing until the test lets it. */
  readonly silentPaths = new Set<string>();
  listCalls = 0;

  plug(ports: FakePort[]): void {
    this.ports.push(...ports);
  }

  unplug(serialNumber: string): void {
    const gone = this.ports.filter((port) => port.info.serialNumber === serialNumber);
    this.ports = this.ports.filter((port) => port.info.serialNumber !== serialNumber);
    for (const port of gone) this.links.get(port.info.path)?.unplug();
  }

  async listPorts(): Promise<SerialPortInfo[]> {
    this.listCalls++;
    return this.ports.map((port) => port.info);
  }

  createTransport(path: string) {
    const link = createMemoryLink(path);
    const port = this.ports.find((candidate) => candidate.info.path === path);
    if (port?.imei) {
      const modem = new ScriptedModem(link.device, { replies: standardReplies({ imei: port.imei }) });
      modem.silent = this.silentPaths.has(path);
      void modem.start();
      this.modems.set(path, modem);
    }
    this.links.set(path, link);
    return link.host;
  }
}

function usbPort(path: string, serialNumber: string, imei?: string): FakePort {
  const port: FakePort = { info: { path, vendorId: '12d1', productId: '1506', serialNumber } };
  if (imei) port.imei = imei;
  return port;
}

class MemoryKnownDevices {
  saved: KnownDevice[][] = [];
  constructor(private readonly initial: KnownDevice[] = []) {}
  load(): KnownDevice[] {
    return structuredClone(this.initial);
  }
  async save(devices: KnownDevice[]): Promise<void> {
    this.saved.push(structuredClone(devices));
  }
  get last(): KnownDevice[] | undefined {
    return this.saved.at(-1);
  }
}

const pools: ModemPool[] = [];
let clock: ManualClock;

afterEach(async () => {
  for (const pool of pools.splice(0)) await settle(pool.stop());
});

function createPool(bus: FakeUsbBus, options: { known?: MemoryKnownDevices; configured?: string[] } = {}) {
  clock = new ManualClock();
  const reports: DeliveryReport[] = [];
  const known = options.known ?? new MemoryKnownDevices();
  const pool = new ModemPool({
    clock,
    logger: silentLogger,
    knownDevices: known,
    createDriver: (source) =>
      new ModemDriver({
        source,
        clock,
        logger: silentLogger,
        createSession: (transport) => new AtSession(transport, { clock, logger: silentLogger }),
        receive: async () => undefined,
        onDeliveryReport: async (report) => {
          reports.push(report);
          return true;
        },
        timing: { backoffInitialMs: 1_000, backoffMaxMs: 8_000 },
      }),
    serial: {
      configured: (options.configured ?? []).map((path) => ({ path, baudRate: 115_200 })),
      listPorts: () => bus.listPorts(),
      createTransport: ({ path }) => bus.createTransport(path),
      probe: (factory) => probeForModem(factory, { timeoutMs: 1_000, clock, logger: silentLogger }),
    },
  });
  pools.push(pool);
  return { pool, reports, known };
}

async function settle<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  tracked.catch(() => undefined);
  for (let elapsed = 0; !done && elapsed < 600_000; elapsed += 250) await clock.advance(250);
  return tracked;
}

async function until(condition: () => boolean): Promise<void> {
  for (let elapsed = 0; !condition(); elapsed += 250) {
    if (elapsed > 600_000) throw new Error('condition not reached in time');
    await clock.advance(250);
  }
}

describe('ModemPool discovery', () => {
  it('uses the first port of a USB modem that answers AT and skips its other interfaces', async () => {
    const bus = new FakeUsbBus();
    bus.plug([
      usbPort('/dev/ttyUSB0', 'SN1'),
      usbPort('/dev/ttyUSB1', 'SN1', '356938035643809'),
      usbPort('/dev/ttyUSB2', 'SN1', '356938035643809'),
    ]);
    const { pool } = createPool(bus);
    await settle(pool.discover());
    const devices = pool.list();
    expect(devices).toHaveLength(1);
    expect(devices[0]).toMatchObject({
      id: deriveDeviceId({ imei: '356938035643809', port: '' }),
      modem: { port: '/dev/ttyUSB1', status: 'ready', usb: { vendorId: '12d1', serialNumber: 'SN1' } },
    });
    expect(pool.online()).toHaveLength(1);
    expect(bus.modems.get('/dev/ttyUSB2')).toBeUndefined();
  });

  it("probes a Quectel EC25's AT primary interface first and never its DIAG or GPS ports", async () => {
    const bus = new FakeUsbBus();
    const ec25 = (path: string, interfaceNumber: number, imei?: string): FakePort => {
      const port: FakePort = {
        info: { path, vendorId: '2c7c', productId: '0125', serialNumber: 'EC25', interfaceNumber },
      };
      if (imei) port.imei = imei;
      return port;
    };
    // Every interface would answer AT here; only the layout keeps DIAG and GPS out.
    bus.plug([
      ec25('/dev/ttyUSB0', 0, '867698041234567'),
      ec25('/dev/ttyUSB1', 1, '867698041234567'),
      ec25('/dev/ttyUSB2', 2, '867698041234567'),
      ec25('/dev/ttyUSB3', 3, '867698041234567'),
    ]);
    const { pool } = createPool(bus);
    await settle(pool.discover());
    expect(pool.list()[0]?.modem.port).toBe('/dev/ttyUSB2');
    expect([...bus.links.keys()]).not.toContain('/dev/ttyUSB0');
    expect([...bus.links.keys()]).not.toContain('/dev/ttyUSB1');
  });

  it('attaches two modems with their own device ids', async () => {
    const bus = new FakeUsbBus();
    bus.plug([
      usbPort('/dev/ttyUSB0', 'SN1', '356938035643809'),
      usbPort('/dev/ttyUSB4', 'SN2', '490154203237518'),
    ]);
    const { pool } = createPool(bus);
    await settle(pool.discover());
    expect(pool.online().map((modem) => modem.deviceId)).toEqual([
      deriveDeviceId({ imei: '356938035643809', port: '' }),
      deriveDeviceId({ imei: '490154203237518', port: '' }),
    ]);
  });

  it('finds a replugged modem again by its USB identity under a new port name', async () => {
    const bus = new FakeUsbBus();
    bus.plug([usbPort('/dev/ttyUSB0', 'SN1'), usbPort('/dev/ttyUSB1', 'SN1', '356938035643809')]);
    const { pool } = createPool(bus);
    await settle(pool.discover());
    const [device] = pool.list();
    if (!device) throw new Error('no device');

    bus.unplug('SN1');
    await until(() => pool.get(device.id)?.modem.status === 'offline');
    expect(pool.online()).toHaveLength(0);
    expect(pool.list()).toHaveLength(1);
    await clock.advance(5_000);

    bus.plug([usbPort('/dev/ttyUSB5', 'SN1'), usbPort('/dev/ttyUSB6', 'SN1', '356938035643809')]);
    await until(() => pool.get(device.id)?.modem.status === 'ready');
    expect(pool.get(device.id)?.modem.port).toBe('/dev/ttyUSB6');
    expect(pool.list()).toHaveLength(1);
  });

  it('uses a configured port and learns its USB identity for later re-finding', async () => {
    const bus = new FakeUsbBus();
    bus.plug([usbPort('/dev/ttyUSB1', 'SN9', '356938035643809')]);
    const { pool } = createPool(bus, { configured: ['/dev/ttyUSB1'] });
    await settle(pool.start());
    expect(pool.list()[0]?.modem).toMatchObject({ port: '/dev/ttyUSB1', usb: { serialNumber: 'SN9' } });
  });
});

describe('ModemPool start', () => {
  it('opens its configured ports side by side: a silent modem holds up no other', async () => {
    const bus = new FakeUsbBus();
    bus.plug([
      usbPort('/dev/ttyUSB1', 'SN1', '356938035643809'),
      usbPort('/dev/ttyUSB2', 'SN2', '490154203237518'),
      usbPort('/dev/ttyUSB3', 'SN3', '352099001761481'),
    ]);
    bus.silentPaths.add('/dev/ttyUSB1');
    const { pool } = createPool(bus, { configured: ['/dev/ttyUSB1', '/dev/ttyUSB2', '/dev/ttyUSB3'] });
    const started = pool.start();
    // No time passes for the silent one to time out: every port is open all the same.
    await vi.waitFor(() =>
      expect([...bus.links.keys()].sort()).toEqual(['/dev/ttyUSB1', '/dev/ttyUSB2', '/dev/ttyUSB3']),
    );
    const silent = bus.modems.get('/dev/ttyUSB1');
    if (silent) silent.silent = false;
    await settle(started);
    await until(() => pool.list().filter((device) => device.modem?.status === 'ready').length === 3);
    expect(
      pool
        .list()
        .map((device) => device.modem?.port)
        .sort(),
    ).toEqual(['/dev/ttyUSB1', '/dev/ttyUSB2', '/dev/ttyUSB3']);
  });

  it('keeps the first configured way to a modem named twice, whichever answers first', async () => {
    const bus = new FakeUsbBus();
    bus.plug([
      usbPort('/dev/ttyUSB1', 'SN1', '356938035643809'),
      usbPort('/dev/ttyUSB2', 'SN1', '356938035643809'),
    ]);
    bus.silentPaths.add('/dev/ttyUSB1');
    const { pool } = createPool(bus, { configured: ['/dev/ttyUSB1', '/dev/ttyUSB2'] });
    const started = pool.start();
    await until(() => pool.list()[0]?.modem?.status === 'ready');
    const silent = bus.modems.get('/dev/ttyUSB1');
    if (silent) silent.silent = false;
    await settle(started);
    await until(
      () => pool.list()[0]?.modem?.port === '/dev/ttyUSB1' && pool.list()[0]?.modem?.status === 'ready',
    );
    expect(pool.list()).toHaveLength(1);
  });
});

describe('ModemPool directory', () => {
  it('lists remembered devices that are not connected as offline', async () => {
    const bus = new FakeUsbBus();
    const remembered: KnownDevice = {
      id: 'abc',
      name: 'Old modem',
      createdAt: 1,
      updatedAt: 1,
      lastSeen: 1,
      simCards: [{ slotIndex: 0, simNumber: 1 }],
      modem: { port: '/dev/ttyUSB9', simulated: false, status: 'ready' },
    };
    const { pool } = createPool(bus, { known: new MemoryKnownDevices([remembered]) });
    await settle(pool.discover());
    expect(pool.list()).toMatchObject([{ id: 'abc', name: 'Old modem', modem: { status: 'offline' } }]);
    expect(pool.ids()).toEqual(['abc']);
    expect(pool.online()).toHaveLength(0);
    const error = await pool.enterPin('abc', '1234').catch((caught: unknown) => caught);
    expect((error as GatewayError).code).toBe(ErrorCode.ModemUnavailable);
  });

  it('remembers an attached modem through the known-device store', async () => {
    const bus = new FakeUsbBus();
    bus.plug([usbPort('/dev/ttyUSB0', 'SN1', '356938035643809')]);
    const { pool, known } = createPool(bus);
    await settle(pool.discover());
    expect(known.last).toMatchObject([
      {
        id: deriveDeviceId({ imei: '356938035643809', port: '' }),
        name: 'Acme M1',
        modem: { imei: '356938035643809' },
      },
    ]);
  });

  it('forgets a device and answers false for an unknown one', async () => {
    const bus = new FakeUsbBus();
    bus.plug([usbPort('/dev/ttyUSB0', 'SN1', '356938035643809')]);
    const { pool, known } = createPool(bus);
    await settle(pool.discover());
    const id = pool.list()[0]?.id ?? '';
    expect(await settle(pool.forget(id))).toBe(true);
    expect(pool.list()).toEqual([]);
    expect(pool.ids()).toEqual([]);
    expect(known.last).toEqual([]);
    expect(await pool.forget('nope')).toBe(false);
  });

  it('publishes what a member can do, and refuses what it cannot with InvalidState', async () => {
    const { pool } = createPool(new FakeUsbBus());
    const refreshed: string[] = [];
    const textOnly: PoolMember = {
      deviceId: 'text-only',
      port: 'http://192.0.2.1',
      status: 'ready',
      simSlots: 1,
      lastSeen: 0,
      capabilities: { storage: { refreshInbox: async () => void refreshed.push('text-only') } },
      start: async () => undefined,
      stop: async () => undefined,
      details: () => ({ port: 'http://192.0.2.1', simulated: false, status: 'ready' }),
      simCard: () => ({ slotIndex: 0, simNumber: 1 }),
      onChange: () => () => undefined,
      send: async () => ({ references: [] }),
    };
    await pool.addMember(textOnly);
    expect(pool.get('text-only')?.modem.capabilities).toEqual(['storage']);
    await pool.refreshInbox();
    expect(refreshed).toEqual(['text-only']);
    for (const refused of [
      pool.ussd('text-only', '*100#'),
      pool.cancelUssd('text-only'),
      pool.enterPin('text-only', '1234'),
      pool.setSmsService('text-only', 'circuit'),
    ]) {
      const error = await refused.catch((caught: unknown) => caught);
      expect((error as GatewayError).code).toBe(ErrorCode.InvalidState);
    }
  });

  it('answers NotFound when refreshing the inbox of an unknown device', async () => {
    const { pool } = createPool(new FakeUsbBus());
    await settle(pool.discover());
    const error = await pool.refreshInbox('nope').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe(ErrorCode.NotFound);
  });

  it('forwards status reports of its modems and tells listeners about changes', async () => {
    const bus = new FakeUsbBus();
    bus.plug([usbPort('/dev/ttyUSB0', 'SN1', '356938035643809')]);
    const { pool, reports } = createPool(bus);
    const changed: string[] = [];
    pool.onChange((deviceId) => changed.push(deviceId));
    await settle(pool.discover());
    const report = encodeStatusReport({
      messageReference: 12,
      recipient: '+15551234567',
      serviceCentreTimestamp: { epochMs: 0, timezoneOffsetMinutes: 0 },
      dischargeTime: { epochMs: 0, timezoneOffsetMinutes: 0 },
      status: 0,
    });
    bus.modems.get('/dev/ttyUSB0')?.inject(`+CDS: ${report.tpduLength}`, report.hex);
    await until(() => reports.length > 0);
    expect(reports[0]).toMatchObject({ deviceId: pool.list()[0]?.id, reference: 12 });
    expect(changed).toContain(pool.list()[0]?.id);
  });
});
