import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ModemPool } from '../../server/devices/pool/modemPool.js';
import { probeForModem } from '../../server/devices/pool/modemProbe.js';
import { createMemoryLink } from '../../server/devices/transport/memoryTransport.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { HealthService } from '../../server/services/health/healthService.js';
import type { MessageRepository } from '../../server/store/repositories.js';

describe('probeForModem', () => {
  /** `answer` to each AT from the `answersFrom`-th one on (an autobauding modem skips the first). */
  async function probe(answer: string | undefined, answersFrom = 1) {
    const clock = new ManualClock();
    const link = createMemoryLink('probe');
    await link.device.open();
    let received = 0;
    link.device.onData((chunk) => {
      if (chunk.toString('latin1').includes('AT')) received++;
      if (answer !== undefined && received >= answersFrom) void link.device.write(answer);
    });
    let settled = false;
    const result = probeForModem(() => link.host, { timeoutMs: 2_000, clock }).finally(() => {
      settled = true;
    });
    for (let step = 0; step < 30 && !settled; step++) await clock.advance(500);
    return { found: await result, link, received };
  }

  it('finds a modem that answers OK, and closes the port again', async () => {
    const { found, link } = await probe('AT\r\r\nOK\r\n');
    expect(found).toBe(true);
    expect(link.host.isOpen).toBe(false);
  });

  it('finds an autobauding modem (SIM800) that answers only a later AT', async () => {
    const { found, received } = await probe('\r\nOK\r\n', 2);
    expect(found).toBe(true);
    expect(received).toBe(2);
  });

  it('says no to a port that answers ERROR', async () => {
    expect((await probe('\r\nERROR\r\n')).found).toBe(false);
  });

  it('says no to a silent port after the timeout', async () => {
    const { found, link, received } = await probe(undefined);
    expect(found).toBe(false);
    expect(received).toBe(3);
    expect(link.host.isOpen).toBe(false);
  });

  it('says no when the port cannot be opened', async () => {
    const link = createMemoryLink('broken');
    link.host.open = async () => {
      throw new Error('EACCES');
    };
    expect(await probeForModem(() => link.host, { timeoutMs: 100, clock: new ManualClock() })).toBe(false);
  });
});

describe('probing a port the OS refuses to this user', () => {
  /** The fix names the group of this machine's serial ports (Debian: dialout, Arch: uucp). */
  const joinGroupFix = /sudo usermod -aG (dialout|uucp) \$USER/;

  /**
   * What the real transport rejects with: serialport's Linux binding answers "Permission denied,
   * cannot open <path>" (measured as an unprivileged user on a 0600 file), which
   * serialTransport.ts reads as TransportAccessDenied (`openFailureCode`).
   */
  function refusedLink(path: string) {
    const link = createMemoryLink(path);
    link.host.open = async () => {
      throw new GatewayError(
        ErrorCode.TransportAccessDenied,
        `cannot open ${path}: Error: Permission denied, cannot open ${path}`,
        { cause: new Error(`Error: Permission denied, cannot open ${path}`) },
      );
    };
    return link;
  }

  /** After the fix the port opens; here it is gone again by then (nothing to bring up). */
  function unpluggedLink(path: string) {
    const link = createMemoryLink(path);
    link.host.open = async () => {
      throw new GatewayError(ErrorCode.TransportOpenFailed, `cannot open ${path}: No such file or directory`);
    };
    return link;
  }

  it('rejects with TransportAccessDenied naming the dialout fix, not "no modem"', async () => {
    const link = refusedLink('/dev/ttyUSB2');
    const outcome = probeForModem(() => link.host, { timeoutMs: 100, clock: new ManualClock() });
    await expect(outcome).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.TransportAccessDenied),
    );
    await expect(outcome).rejects.toThrow(joinGroupFix);
  });

  it('is reported by discovery for a USB port, and in the health check, until the port opens', async () => {
    let refused = true;
    const pool = new ModemPool({
      clock: new ManualClock(),
      logger: silentLogger,
      knownDevices: { load: () => [], save: async () => undefined },
      createDriver: () => {
        throw new Error('no modem is started in this test');
      },
      serial: {
        configured: [],
        listPorts: async () => [],
        createTransport: (port) => (refused ? refusedLink(port.path) : unpluggedLink(port.path)).host,
        probe: (factory) => probeForModem(factory, { timeoutMs: 100, clock: new ManualClock() }),
      },
    });
    const usbPort = { path: '/dev/ttyUSB2', vendorId: '12d1', productId: '1001' };
    const uart = { path: '/dev/ttyS0' };
    let changes = 0;
    pool.onRefusedPortsChange(() => changes++);
    await pool.discover([usbPort, uart]);
    await pool.discover([usbPort]);
    expect(pool.refusedPorts()).toEqual([
      { path: '/dev/ttyUSB2', code: 'TransportAccessDenied', fix: expect.stringMatching(joinGroupFix) },
    ]);
    expect(changes).toBe(1);
    const health = new HealthService({
      devices: pool,
      messages: { countInState: () => 0, countFailedSince: () => 0 } as unknown as MessageRepository,
      clock: new ManualClock(),
      storageWritable: async () => true,
      version: '1.0.0',
      releaseId: 1,
      thresholds: { weakSignalDbm: -100, failedWarn: 1, failedFail: 10, queueWarn: 10, queueFail: 100 },
      refusedPorts: () => pool.refusedPorts(),
    });
    const connected = (await health.report()).checks['modems:connected'];
    expect(connected?.status).toBe('fail');
    expect(connected?.description).toMatch(joinGroupFix);

    refused = false;
    await pool.discover([usbPort]);
    expect(pool.refusedPorts()).toEqual([]);
    expect(changes).toBe(2);
    await pool.stop();
  });

  it('forgets a refused port once it is unplugged', async () => {
    const pool = new ModemPool({
      clock: new ManualClock(),
      logger: silentLogger,
      knownDevices: { load: () => [], save: async () => undefined },
      createDriver: () => {
        throw new Error('no modem is started in this test');
      },
      serial: {
        configured: [],
        listPorts: async () => [],
        createTransport: (port) => refusedLink(port.path).host,
        probe: (factory) => probeForModem(factory, { timeoutMs: 100, clock: new ManualClock() }),
      },
    });
    let changes = 0;
    pool.onRefusedPortsChange(() => changes++);
    await pool.discover([{ path: '/dev/ttyACM0', vendorId: '1e0e', productId: '9001' }]);
    expect(pool.refusedPorts().map((port) => port.path)).toEqual(['/dev/ttyACM0']);
    pool.forgetPorts(['/dev/ttyUSB7', '/dev/ttyACM0']);
    expect(pool.refusedPorts()).toEqual([]);
    expect(changes).toBe(2);
    await pool.stop();
  });
});
