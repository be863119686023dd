import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { ModemPool } from '../../server/devices/pool/modemPool.js';
import { probeForModem } from '../../server/devices/pool/modemProbe.js';
import { startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import type { SimulatedModemOptions } from '../../server/devices/simulator/simulatedModem.js';
import { createSerialTransport } from '../../server/devices/transport/serialTransport.js';
import { silentLogger } from '../../server/logging/logger.js';
import { realTimeDrivers } from '../support/modemDrivers.js';
import { pollUntil } from '../support/pollUntil.js';

/**
 * Registration as the network reports it, through the real serialport binding on a pty: an
 * LTE-only attach shows only in +CEREG; a 2G-only modem where there is no 2G network stays
 * unregistered and the device says why.
 */
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const waitFor = (condition: () => boolean, limitMs = 10_000) => pollUntil(condition, { limitMs });

async function poolWith(modem: Omit<SimulatedModemOptions, 'clock' | 'logger'>) {
  const pty = await startPtyModem({ clock: systemClock, logger: silentLogger, modem });
  cleanups.push(() => pty.close());
  const pool = new ModemPool({
    clock: systemClock,
    logger: silentLogger,
    knownDevices: { load: () => [], save: async () => undefined },
    createDriver: realTimeDrivers({ timing: { healthIntervalMs: 300 } }),
    serial: {
      configured: [{ path: pty.path, baudRate: 115_200 }],
      listPorts: async () => [],
      createTransport: (port) => createSerialTransport(port),
      probe: (factory) => probeForModem(factory, { timeoutMs: 1_000, clock: systemClock }),
    },
  });
  cleanups.push(() => pool.stop());
  await pool.start();
  return { pool, pty };
}

describe('registration read from +CREG, +CGREG and +CEREG', () => {
  it('sends through a modem attached on LTE only, which +CREG calls not registered', async () => {
    const { pool, pty } = await poolWith({ radioTechnologies: ['2G', '3G', '4G'], attachedTechnology: '4G' });
    await waitFor(() => pool.online().length === 1);
    expect(pool.list()[0]?.modem).toMatchObject({
      status: 'ready',
      registration: 'home',
      radio: '4G',
      radioSupport: ['2G', '3G', '4G'],
    });
    const result = await pool.online()[0]?.send({
      messageId: 'lte-1',
      recipient: '+15551234567',
      content: { kind: 'text', text: 'over LTE' },
      simNumber: 1,
      requestStatusReport: false,
    });
    expect(result?.references).toHaveLength(1);
    expect(pty.modem.accepted).toHaveLength(1);
  });

  it('explains a 2G-only modem with no 2G network instead of sending into +CMS ERRORs', async () => {
    const { pool, pty } = await poolWith({ radioTechnologies: ['2G'] });
    pty.modem.setRegistration(2);
    await waitFor(() => pool.list()[0]?.modem.status === 'no-network');
    expect(pool.online()).toHaveLength(0);
    expect(pool.list()[0]?.modem.statusDetail).toMatch(/only speaks 2G/);
    // The network comes back (a 2G cell in reach): the modem is offered work again.
    pty.modem.setRegistration(1);
    await waitFor(() => pool.online().length === 1);
  });
});
