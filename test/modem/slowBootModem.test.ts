import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { ModemPool } from '../../server/devices/pool/modemPool.js';
import { probeForModem } from '../../server/devices/pool/modemProbe.js';
import { startPortProbing } from '../../server/devices/pool/portProbing.js';
import { startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import { createSerialTransport } from '../../server/devices/transport/serialTransport.js';
import { silentLogger } from '../../server/logging/logger.js';
import { realTimeDrivers } from '../support/modemDrivers.js';
import { pollUntil } from '../support/pollUntil.js';

/**
 * A modem that answers only seconds after its port appeared (Quectel EC2x and SIMCom SIM7600
 * take over 10 s after USB enumeration), on a real pty: the first probes meet silence, a later
 * one with back-off finds it. Timings are scaled down.
 */
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const waitFor = (condition: () => boolean) => pollUntil(condition, { limitMs: 20_000 });

describe('a modem that is slow to answer after power-on', () => {
  it('is found by a later probe of its port, without waiting for a new port to appear', async () => {
    const pty = await startPtyModem({ clock: systemClock, logger: silentLogger });
    cleanups.push(() => pty.close());
    pty.modem.setSilent(true);
    const pool = new ModemPool({
      clock: systemClock,
      logger: silentLogger,
      knownDevices: { load: () => [], save: async () => undefined },
      createDriver: realTimeDrivers({ timing: { healthIntervalMs: 60_000 } }),
      serial: {
        configured: [],
        listPorts: async () => [{ path: pty.path }],
        createTransport: (port) => createSerialTransport(port),
        probe: (factory) =>
          probeForModem(factory, { timeoutMs: 1_000, attempts: 2, clock: systemClock, logger: silentLogger }),
      },
    });
    cleanups.push(() => pool.stop());
    const probing = startPortProbing({
      listPorts: async () => [{ path: pty.path }],
      probe: (ports) => pool.discover(ports),
      clock: systemClock,
      logger: silentLogger,
      intervalMs: 60_000,
      retryDelaysMs: [300, 600, 1_200, 2_400, 4_800],
    });
    cleanups.push(() => probing.stop());
    await probing.firstRound;
    expect(pool.online()).toHaveLength(0);
    const probesWhileBooting = pty.modem.commands.filter((command) => command === 'AT').length;
    expect(probesWhileBooting).toBeGreaterThanOrEqual(2);

    pty.modem.setSilent(false);
    await waitFor(() => pool.online().length === 1);
    expect(pool.list()[0]?.modem).toMatchObject({ port: pty.path, status: 'ready' });
  });
});
