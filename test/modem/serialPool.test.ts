import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { type KnownDevice, ModemPool } from '../../server/devices/pool/modemPool.js';
import { probeForModem } from '../../server/devices/pool/modemProbe.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import { createSerialTransport } from '../../server/devices/transport/serialTransport.js';
import { silentLogger } from '../../server/logging/logger.js';
import { realTimeDrivers } from '../support/modemDrivers.js';
import { pollUntil } from '../support/pollUntil.js';

/**
 * The pool with the real serialport binding: the simulated modem sits behind a socat pty pair
 * and the gateway opens the pty like a USB modem (`--modem <path>`). Real time, short timings.
 */
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const waitFor = (condition: () => boolean, limitMs = 10_000) => pollUntil(condition, { limitMs });

async function ptyPool(pty: PtyModem) {
  const saved: KnownDevice[][] = [];
  const pool = new ModemPool({
    clock: systemClock,
    logger: silentLogger,
    knownDevices: { load: () => [], save: async (devices) => void saved.push(devices) },
    createDriver: realTimeDrivers({
      timing: { backoffInitialMs: 50, backoffMaxMs: 200, healthIntervalMs: 60_000 },
    }),
    serial: {
      configured: [{ path: pty.path, baudRate: 115_200 }],
      listPorts: async () => [],
      createTransport: (port) => createSerialTransport(port),
      probe: (factory) => probeForModem(factory, { timeoutMs: 1_000, clock: systemClock }),
    },
  });
  cleanups.push(() => pool.stop());
  await pool.start();
  return pool;
}

describe('ModemPool over a real pty', () => {
  it('brings up a modem on a pty through serialport and sends a message', async () => {
    const pty = await startPtyModem({ clock: systemClock, logger: silentLogger, modem: { echo: true } });
    cleanups.push(() => pty.close());
    const pool = await ptyPool(pty);
    await waitFor(() => pool.online().length === 1);
    const [modem] = pool.online();
    const result = await modem?.send({
      messageId: 'pty-1',
      recipient: '+15551234567',
      content: { kind: 'text', text: 'over a real port' },
      simNumber: 1,
      requestStatusReport: false,
    });
    expect(result?.references).toHaveLength(1);
    expect(pty.modem.accepted[0]?.decoded.text).toBe('over a real port');
    expect(pool.list()[0]?.modem).toMatchObject({ port: pty.path, status: 'ready', simulated: false });
  });

  it('shows the modem offline when the port goes away', async () => {
    const pty = await startPtyModem({ clock: systemClock, logger: silentLogger });
    const pool = await ptyPool(pty);
    await waitFor(() => pool.online().length === 1);
    await pty.close();
    await waitFor(() => pool.list()[0]?.modem.status === 'offline');
    expect(pool.online()).toHaveLength(0);
  });
});
