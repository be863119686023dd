import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import type { DeliveryReport } from '../../server/contract/domain/device.js';
import type { DecodedDeliver } from '../../server/contract/pdu/index.js';
import type { ModemTimingOptions } from '../../server/devices/modem/modemTiming.js';
import { ModemPool } from '../../server/devices/pool/modemPool.js';
import { probeForModem } from '../../server/devices/pool/modemProbe.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import type { SimulatedModemOptions } from '../../server/devices/simulator/simulatedModem.js';
import { createSerialTransport } from '../../server/devices/transport/serialTransport.js';
import { silentLogger } from '../../server/logging/logger.js';
import { realTimeDrivers } from '../support/modemDrivers.js';
import { pollUntil } from '../support/pollUntil.js';
import { createPtyPair } from '../support/pty.js';

/**
 * A multi-port modem on real ptys: the simulator answers AT on one pty and sends its
 * indications (+CMTI, +CDSI) to a SECOND pty the gateway never opens, as a Huawei stick sends
 * them to its modem port and a Quectel EC2x to its usbmodem port. Status reports are kept in
 * their own memory ("SR"). Only polling every memory gets messages and reports in.
 */
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const waitFor = (condition: () => boolean, limitMs = 10_000) => pollUntil(condition, { limitMs });

async function multiPortModem(modem: Omit<SimulatedModemOptions, 'clock' | 'logger'> = {}) {
  const urcPort = await createPtyPair();
  cleanups.push(() => urcPort.close());
  const pty: PtyModem = await startPtyModem({
    clock: systemClock,
    logger: silentLogger,
    modem: {
      statusReportMemory: 'SR',
      indicationPort: createSerialTransport({ path: urcPort.devicePath }),
      statusReportDelayMs: 100,
      ...modem,
    },
  });
  cleanups.push(() => pty.close());
  return pty;
}

async function poolOn(pty: PtyModem, timing: Partial<ModemTimingOptions> = {}) {
  const received: DecodedDeliver[] = [];
  const reports: DeliveryReport[] = [];
  const pool = new ModemPool({
    clock: systemClock,
    logger: silentLogger,
    knownDevices: { load: () => [], save: async () => undefined },
    createDriver: realTimeDrivers({
      receive: async (_deviceId, _sim, sms) => void received.push(sms),
      onDeliveryReport: async (report) => reports.push(report),
      timing: { pollIntervalMs: 600, pollAfterSendMs: 300, healthIntervalMs: 60_000, ...timing },
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
  await waitFor(() => pool.online().length === 1);
  return { pool, received, reports };
}

describe('a modem that sends its indications to another USB interface', () => {
  it('gets an incoming SMS into the inbox by listing the storage, and deletes it from the SIM', async () => {
    const pty = await multiPortModem();
    const { received } = await poolOn(pty);
    pty.modem.injectIncoming({ sender: '+15557654321', text: 'routed elsewhere' }, { delivery: 'cmti' });
    await waitFor(() => received.length === 1);
    expect(received[0]?.text).toBe('routed elsewhere');
    // The +CMTI went to the other pty: nothing was read by its index, the listing found it.
    expect(pty.modem.commands.some((command) => command.startsWith('AT+CMGR'))).toBe(false);
    await waitFor(() => pty.modem.commands.includes('AT+CMGD=0'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(received).toHaveLength(1);
  });

  it('marks a sent part delivered from a status report kept only in SR', async () => {
    const pty = await multiPortModem();
    const { pool, reports } = await poolOn(pty);
    const [modem] = pool.online();
    const result = await modem?.send({
      messageId: 'report-1',
      recipient: '+15551234567',
      content: { kind: 'text', text: 'report me' },
      simNumber: 1,
      requestStatusReport: true,
    });
    await waitFor(() => reports.length === 1);
    expect(reports[0]).toMatchObject({ reference: result?.references[0], status: 0 });
    expect(pty.modem.commands).toContain('AT+CPMS="SR"');
  });
});

describe('routing unsolicited codes to the port the gateway uses', () => {
  // Polling so slow that only an indication on our own port can bring the message in time.
  const noPolling = { pollIntervalMs: 600_000, pollAfterSendMs: 600_000 };

  it('sends AT^PORTSEL=1 to a Huawei stick, after which its +CMTI reaches us', async () => {
    const pty = await multiPortModem({ identity: { manufacturer: 'huawei', model: 'E173' } });
    const { received } = await poolOn(pty, noPolling);
    expect(pty.modem.commands).toContain('AT^PORTSEL=1');
    await waitFor(() => pty.modem.commands.at(-1) === 'AT+CPMS="SM"');
    pty.modem.injectIncoming({ sender: '+15557654321', text: 'straight to PC UI' }, { delivery: 'cmti' });
    await waitFor(() => received.length === 1, 10_000);
    // The delete follows once the sink has the message: wait for it, not for a moment.
    await waitFor(() => pty.modem.commands.at(-1) === 'AT+CMGD=0', 10_000);
    // Read by its index from the +CMTI, not found by a listing.
    expect(pty.modem.commands.slice(-2)).toEqual(['AT+CMGR=0', 'AT+CMGD=0']);
  });

  it('reads and then sets the Quectel URC port, once', async () => {
    const pty = await multiPortModem({ identity: { manufacturer: 'Quectel', model: 'EC25' } });
    const { pool, received } = await poolOn(pty, noPolling);
    expect(pty.modem.commands.filter((command) => command.startsWith('AT+QURCCFG'))).toEqual([
      'AT+QURCCFG="urcport"',
      'AT+QURCCFG="urcport","all"',
    ]);
    await waitFor(() => pty.modem.commands.at(-1) === 'AT+CPMS="SM"');
    pty.modem.injectIncoming({ sender: '+15557654321', text: 'to every port' }, { delivery: 'cmti' });
    await waitFor(() => received.length === 1, 10_000);
    expect(pty.modem.commands).toContain('AT+CMGR=0');
    // A re-initialisation finds it set already and writes nothing (the setting lives in NVRAM).
    await pool.stop();
    await poolOn(pty, noPolling);
    expect(pty.modem.commands.filter((command) => command === 'AT+QURCCFG="urcport","all"')).toHaveLength(1);
  });
});
