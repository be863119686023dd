import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { DeliveryReport } from '../../server/contract/domain/device.js';
import { AtSession } from '../../server/devices/at/atSession.js';
import { ModemDriver } from '../../server/devices/modem/modemDriver.js';
import { SimulatedModem } from '../../server/devices/simulator/simulatedModem.js';
import { createMemoryLink } from '../../server/devices/transport/memoryTransport.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { EventBus } from '../../server/services/events/eventBus.js';
import { InboxService } from '../../server/services/inbox/inboxService.js';
import { MemoryInbox, memoryPendingParts } from '../inbox/memoryInbox.js';

/** The driver against the built-in simulated modem (another engineer's), end to end in memory. */
interface Rig {
  clock: ManualClock;
  simulator: SimulatedModem;
  driver: ModemDriver;
  inbox: MemoryInbox;
  inboxService: InboxService;
  reports: DeliveryReport[];
}

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function rig(options: { simPin?: string; driverPin?: string } = {}): Promise<Rig> {
  const clock = new ManualClock();
  const link = createMemoryLink('simulated:1');
  const simulator = new SimulatedModem(link.device, {
    clock,
    logger: silentLogger,
    identity: { imei: '490154203237518' },
    ...(options.simPin ? { simPin: options.simPin } : {}),
  });
  await simulator.start();
  const inbox = new MemoryInbox();
  const inboxService = new InboxService({
    repository: inbox,
    events: new EventBus(),
    pendingParts: memoryPendingParts(),
    clock,
    logger: silentLogger,
  });
  await inboxService.start();
  const reports: DeliveryReport[] = [];
  const driver = new ModemDriver({
    source: { port: 'simulated:1', simulated: true, openTransport: async () => link.host },
    createSession: (transport) => new AtSession(transport, { clock, logger: silentLogger }),
    receive: (deviceId, simNumber, sms) => inboxService.receive(deviceId, simNumber, sms),
    onDeliveryReport: async (report) => {
      reports.push(report);
      return true;
    },
    clock,
    logger: silentLogger,
    ...(options.driverPin ? { pin: options.driverPin } : {}),
  });
  const created: Rig = { clock, simulator, driver, inbox, inboxService, reports };
  cleanups.push(async () => {
    await settle(created, driver.stop());
    await inboxService.stop();
    await simulator.stop();
  });
  await settle(created, driver.start());
  return created;
}

async function settle<T>(rigged: Pick<Rig, 'clock'>, promise: Promise<T>): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  tracked.catch(() => undefined);
  for (let elapsed = 0; !done && elapsed < 600_000; elapsed += 100) await rigged.clock.advance(100);
  return tracked;
}

async function until(rigged: Rig, condition: () => boolean): Promise<void> {
  for (let elapsed = 0; !condition(); elapsed += 100) {
    if (elapsed > 600_000) throw new Error('condition not reached in time');
    await rigged.clock.advance(100);
  }
}

describe('ModemDriver with the simulated modem', () => {
  it('initialises the simulated modem to ready', async () => {
    const test = await rig();
    expect(test.driver.status).toBe('ready');
    expect(test.driver.details().imei).toBe('490154203237518');
  });

  it('sends a three-part message and receives a delivery report for every part', async () => {
    const test = await rig();
    const result = await settle(
      test,
      test.driver.send({
        messageId: 'm1',
        recipient: '+15551234567',
        content: { kind: 'text', text: 'z'.repeat(400) },
        simNumber: 1,
        requestStatusReport: true,
      }),
    );
    expect(result.references).toHaveLength(3);
    expect(test.simulator.accepted.map((pdu) => pdu.messageReference)).toEqual(result.references);
    await until(test, () => test.reports.length === 3);
    expect(test.reports.map((report) => report.reference).sort()).toEqual([...result.references].sort());
    expect(
      test.reports.every((report) => report.status === 0 && report.deviceId === test.driver.deviceId),
    ).toBe(true);
  });

  it('reassembles a multipart message that arrives out of order and empties the SIM', async () => {
    const test = await rig();
    const text = `${'a'.repeat(153)}${'b'.repeat(153)}${'c'.repeat(20)}`;
    test.simulator.injectIncoming({ sender: '+15557654321', text }, { partOrder: [2, 0, 1] });
    await until(test, () => test.inbox.all().length === 1);
    expect(test.inbox.all()[0]).toMatchObject({ sender: '+15557654321', content: text, type: 'SMS' });
    await test.driver.refreshInbox();
    expect(test.simulator.commands.filter((command) => command.startsWith('AT+CMGD='))).toHaveLength(3);
  });

  it('rejects with CmsError when the simulated network refuses the message', async () => {
    const test = await rig();
    test.simulator.failSends(500);
    const error = await settle(
      test,
      test.driver.send({
        messageId: 'm2',
        recipient: '+15551234567',
        content: { kind: 'text', text: 'no' },
        simNumber: 1,
        requestStatusReport: false,
      }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe(ErrorCode.CmsError);
    expect((error as GatewayError).modemCode).toBe(500);
  });

  it('unlocks a PIN-locked simulated SIM with the configured PIN', async () => {
    const test = await rig({ simPin: '2468', driverPin: '2468' });
    expect(test.driver.status).toBe('ready');
  });

  it('stops at sim-pin-wrong after one wrong configured PIN', async () => {
    const test = await rig({ simPin: '2468', driverPin: '1111' });
    expect(test.driver.status).toBe('sim-pin-wrong');
    await test.clock.advance(300_000);
    expect(test.simulator.commands.filter((command) => command.startsWith('AT+CPIN='))).toHaveLength(1);
  });
});
