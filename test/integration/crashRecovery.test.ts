/**
 * A crash mid-send (docs/decisions.md#no-silent-resend): the gateway runs as its own process on a
 * pty modem and is killed with SIGKILL while the modem holds a PDU it has not answered yet. After a
 * restart on the same data directory every accepted (202) message is still there, the one that was
 * in the modem's hands is Failed "interrupted; may have been sent", and nothing goes out twice.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import type { LogRecord } from '../../server/logging/logger.js';
import { collectingLogger } from '../support/gatewayHarness.js';
import type { ApiMessage } from './support/apiReads.js';
import { type ChildGateway, freePort, startChildGateway } from './support/childGateway.js';
import { partCounts } from './support/trafficPlan.js';

const MESSAGE_COUNT = 40;
/** Network time per part: long enough that a kill lands while the modem holds a PDU. */
const NETWORK_SEND_DELAY_MS = 150;
const INTERRUPTED_ERROR = 'interrupted; may have been sent';

interface Outcome {
  accepted: { id: string; phoneNumber: string }[];
  /** Recipient of the PDU the modem was holding at the kill; undefined if it got none. */
  heldPduRecipient: string | undefined;
  afterRestart: Map<string, ApiMessage>;
  storedTotal: number;
  pduCounts: Map<string, number>;
}

describe('a gateway killed with SIGKILL in the middle of a send', () => {
  const logs: LogRecord[] = [];
  let dataDir: string;
  let ptyDirectory: string;
  let modem: PtyModem | undefined;
  let gateway: ChildGateway | undefined;
  let outcome: Outcome;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'smsgw-crash-data-'));
    ptyDirectory = await mkdtemp(join(tmpdir(), 'smsgw-crash-pty-'));
    modem = await startPtyModem({
      clock: systemClock,
      logger: collectingLogger(logs),
      directory: ptyDirectory,
      name: 'modem',
      modem: { sendDelayMs: NETWORK_SEND_DELAY_MS },
    });
    const port = await freePort();
    const options = { dataDir, modemPath: modem.path, port };
    gateway = await startChildGateway(options);
    outcome = await crashAndRestart(gateway, modem, async () => {
      gateway = await startChildGateway(options);
      return gateway;
    });
  }, 90_000);

  afterAll(async () => {
    await gateway?.stop();
    await modem?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (ptyDirectory) await rm(ptyDirectory, { recursive: true, force: true });
  });

  it('keeps every message that was answered 202', () => {
    expect(outcome.accepted.length).toBeGreaterThan(0);
    const missing = outcome.accepted.filter(({ id }) => !outcome.afterRestart.has(id));
    expect(missing).toEqual([]);
  });

  it('fails the message the modem held at the kill as "interrupted; may have been sent"', () => {
    const interrupted = [...outcome.afterRestart.values()].filter(
      (message) => message.recipients[0]?.error === INTERRUPTED_ERROR,
    );
    console.info(
      `crash recovery: ${outcome.accepted.length} answered 202, ${outcome.afterRestart.size} stored; the modem ` +
        (outcome.heldPduRecipient === undefined ? 'had no PDU yet at the kill' : 'held a PDU at the kill'),
    );
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]?.state).toBe('Failed');
    const phoneNumber = interrupted[0]?.recipients[0]?.phoneNumber;
    if (outcome.heldPduRecipient !== undefined) expect(phoneNumber).toBe(outcome.heldPduRecipient);
    expect(outcome.pduCounts.get(`${phoneNumber}#1`) ?? 0).toBe(
      outcome.heldPduRecipient === undefined ? 0 : 1,
    );
  });

  it('sends no part twice, and delivers every other message exactly once', () => {
    expect([...outcome.pduCounts].filter(([, count]) => count > 1)).toEqual([]);
    const wrong = [...outcome.afterRestart.values()]
      .filter((message) => message.recipients[0]?.error !== INTERRUPTED_ERROR)
      .filter(
        (message) =>
          // withDeliveryReport defaults to true (as upstream), and the simulator reports delivery.
          message.state !== 'Delivered' ||
          outcome.pduCounts.get(`${message.recipients[0]?.phoneNumber}#1`) !== 1,
      )
      .map((message) => `${message.recipients[0]?.phoneNumber}: ${message.state}`);
    expect(wrong).toEqual([]);
    expect(outcome.storedTotal).toBe(outcome.afterRestart.size);
  });
});

async function crashAndRestart(
  first: ChildGateway,
  modem: PtyModem,
  restart: () => Promise<ChildGateway>,
): Promise<Outcome> {
  const accepted: { id: string; phoneNumber: string }[] = [];
  let killed = false;
  // Posts keep coming while the gateway dies: only those answered 202 count as accepted.
  const posting = (async () => {
    for (let index = 0; index < MESSAGE_COUNT && !killed; index++) {
      const phoneNumber = `+44770095${String(index).padStart(4, '0')}`;
      try {
        const response = await first.api.post<ApiMessage>('/messages', {
          textMessage: { text: `crash run #${index}` },
          phoneNumbers: [phoneNumber],
        });
        if (response.status === 202) accepted.push({ id: response.body.id, phoneNumber });
      } catch {
        // The connection died with the process: no 202, so no promise was made.
      }
    }
  })();

  // Kill while the modem holds a PDU it has not answered: an AT+CMGS without its +CMGS yet.
  const inFlightAtKill = await vi.waitFor(
    () => {
      const sends = modem.modem.commands.filter((command) => command.startsWith('AT+CMGS=')).length;
      if (modem.modem.accepted.length < 3 || sends <= modem.modem.accepted.length) {
        throw new Error('no send in flight after the first three');
      }
      return sends;
    },
    { timeout: 30_000, interval: 2 },
  );
  // The gateway writes the PDU right after the prompt; the modem then holds it for the network
  // delay. Killing a moment after the prompt lands inside that window (if it lands before the
  // PDU was written, nothing left and the message must fail all the same).
  await delay(20);
  await first.kill();
  killed = true;
  await posting;
  // The modem finishes what it was given: a held PDU is accepted after the network delay.
  await delay(NETWORK_SEND_DELAY_MS * 2);
  const heldPdu = modem.modem.accepted[inFlightAtKill - 1];

  const second = await restart();
  const afterRestart = await vi.waitFor(
    async () => {
      const response = await second.api.get<ApiMessage[]>('/messages?limit=500');
      // Sent is not final either: every message asked for a delivery report (the default).
      const open = response.body.filter((message) =>
        ['Pending', 'Processed', 'Sent'].includes(message.state),
      );
      if (open.length > 0) throw new Error(`${open.length} messages still in progress`);
      return {
        byId: new Map(response.body.map((message) => [message.id, message])),
        total: Number(response.headers.get('x-total-count')),
      };
    },
    { timeout: 30_000, interval: 200 },
  );
  return {
    accepted,
    heldPduRecipient: heldPdu?.decoded.recipient.number,
    afterRestart: afterRestart.byId,
    storedTotal: afterRestart.total,
    pduCounts: partCounts(modem.modem.accepted),
  };
}
