import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { realSerialAccess } from '../../server/composition/serialAccess.js';
import { parseCommandLine } from '../../server/config/commandLine.js';
import { ModemPool } from '../../server/devices/pool/modemPool.js';
import { startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import { silentLogger } from '../../server/logging/logger.js';
import { realTimeDrivers } from '../support/modemDrivers.js';
import { pollUntil } from '../support/pollUntil.js';
import { startSerialServer } from '../support/serialServer.js';

/**
 * `--modem tcp://host:port`: a modem behind a serial-over-IP server (test/support/serialServer.ts:
 * a loopback TCP port bridged to the simulated modem's pty, as ser2net does in raw mode).
 */
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function poolFor(modemFlag: string) {
  const command = parseCommandLine(['--modem', modemFlag], {});
  if (command.kind !== 'run') throw new Error(`expected run, got ${command.kind}`);
  const pool = new ModemPool({
    clock: systemClock,
    logger: silentLogger,
    knownDevices: { load: () => [], save: async () => undefined },
    createDriver: realTimeDrivers({
      timing: { backoffInitialMs: 50, backoffMaxMs: 200, healthIntervalMs: 60_000 },
    }),
    // What the gateway uses outside tests: `tcp://` addresses become sockets there.
    serial: { ...realSerialAccess(systemClock, silentLogger), configured: command.options.modems },
  });
  cleanups.push(() => pool.stop());
  return pool;
}

describe('a modem behind a serial server (--modem tcp://host:port)', () => {
  it('comes up over the network and sends a message through it', async () => {
    const pty = await startPtyModem({ clock: systemClock, logger: silentLogger });
    cleanups.push(() => pty.close());
    const serialServer = await startSerialServer(pty);
    cleanups.push(serialServer.stop);
    const pool = poolFor(serialServer.address);
    await pool.start();
    await pollUntil(() => pool.online().length === 1, { limitMs: 10_000 });

    const result = await pool.online()[0]?.send({
      messageId: 'tcp-1',
      recipient: '+15551234567',
      content: { kind: 'text', text: 'over a serial server' },
      simNumber: 1,
      requestStatusReport: false,
    });

    expect(result?.references).toHaveLength(1);
    expect(pty.modem.accepted[0]?.decoded.text).toBe('over a serial server');
    expect(pool.list()[0]?.modem).toMatchObject({
      port: serialServer.address,
      status: 'ready',
      simulated: false,
    });
    expect(serialServer.clients.size).toBe(1);
  });

  it('notices when the serial server drops the connection, and connects again', async () => {
    const pty = await startPtyModem({ clock: systemClock, logger: silentLogger });
    cleanups.push(() => pty.close());
    const serialServer = await startSerialServer(pty);
    cleanups.push(serialServer.stop);
    const pool = poolFor(serialServer.address);
    await pool.start();
    await pollUntil(() => pool.online().length === 1, { limitMs: 10_000 });
    const [firstClient] = serialServer.clients;
    // Every status the modem passes through: a reconnect can be quicker than any polling interval.
    const statusesAfterDrop: string[] = [];
    pool.onChange((deviceId) => {
      const status = pool.get(deviceId)?.modem.status;
      if (status !== undefined) statusesAfterDrop.push(status);
    });

    firstClient?.destroy();

    await pollUntil(() => statusesAfterDrop.some((status) => status !== 'ready'), { limitMs: 10_000 });
    await pollUntil(() => pool.online().length === 1 && serialServer.clients.size === 1, { limitMs: 10_000 });
    expect([...serialServer.clients]).not.toContain(firstClient);
    expect(serialServer.clients.size).toBe(1);
  });
});
