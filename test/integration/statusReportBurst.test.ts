/**
 * Issue 36 item 10: delivery reports during fast multi-part sends. A simulated modem on a pty
 * takes 30 ms per part and keeps status reports on its SIM (+CDSI), as the review's stick did.
 * Reading a report takes two commands (AT+CMGR, AT+CMGD); when they only took turns with the
 * parts, reading fell behind sending, the 20-slot SIM filled, and the modem refused the reports
 * that came then: many messages never reached Delivered and stayed Sent, with no word, for
 * ever.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPORT_LOST_ERROR } from '../../server/contract/domain/failureTexts.js';
import type { ModemTimingOptions } from '../../server/devices/modem/modemTiming.js';
import type { SimulatedModemOptions } from '../../server/devices/simulator/simulatedModem.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { type ApiMessage, listAllMessages, waitForReadyModems } from './support/apiReads.js';

const MESSAGES = 60;
/** 200 GSM-7 characters: two parts (153 + 47). */
const twoPartText = 'Your parcel is on its way. '.repeat(8).slice(0, 200);
const SIM_SLOTS = 20;
const NETWORK_SEND_DELAY_MS = 30;
/** The simulator's warning when a report finds no free slot. */
const REPORT_REFUSED = 'message storage is full: a status report was lost';
/** Lists the storage soon after each send, so a SIM kept full is seen within the test's wait. */
const TIMING: Partial<ModemTimingOptions> = { pollAfterSendMs: 300 };

async function startWithSim(storageSize: number): Promise<GatewayHarness> {
  const modem: Omit<SimulatedModemOptions, 'clock' | 'logger'> = {
    sendDelayMs: NETWORK_SEND_DELAY_MS,
    storageSize,
  };
  const harness = await startGatewayHarness({
    ptyModems: 1,
    ptyModemOptions: () => modem,
    modemTiming: TIMING,
  });
  await waitForReadyModems(harness.api, 1);
  return harness;
}

/** Queues `count` two-part messages with delivery reports while sending is paused, then resumes. */
async function sendBurst(harness: GatewayHarness, count: number): Promise<string[]> {
  expect((await harness.api.post('/gateway/v1/sending', { paused: true })).status).toBe(200);
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const response = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: twoPartText },
      phoneNumbers: [`+4477009${String(index).padStart(5, '0')}`],
      withDeliveryReport: true,
    });
    expect(response.status).toBe(202);
    ids.push(response.body.id);
  }
  expect((await harness.api.post('/gateway/v1/sending', { paused: false })).status).toBe(200);
  return ids;
}

function refusedReports(harness: GatewayHarness): number {
  return harness.logs.filter((record) => record.message === REPORT_REFUSED).length;
}

function stateCounts(messages: readonly ApiMessage[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const message of messages) counts[message.state] = (counts[message.state] ?? 0) + 1;
  return counts;
}

/** "Delivered", or "Sent: <error>" for a message still waiting: what a reader of the list sees. */
function outcome(message: ApiMessage): string {
  const errors = message.recipients.flatMap((recipient) => (recipient.error ? [recipient.error] : []));
  return errors.length === 0 ? message.state : `${message.state}: ${errors.join('; ')}`;
}

describe('60 two-part messages at 30 ms a part, reports kept on a 20-slot SIM', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await startWithSim(SIM_SLOTS);
  }, 30_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('reads every report before the SIM fills, so all 60 reach Delivered', async () => {
    const modem = harness.ptyModem(0);
    let mostStored = 0;
    const sampler = setInterval(() => {
      mostStored = Math.max(mostStored, modem.storedOnSim);
    }, 5);
    try {
      const startedAt = Date.now();
      await sendBurst(harness, MESSAGES);
      await vi.waitFor(() => expect(harness.acceptedBy(0)).toHaveLength(2 * MESSAGES), {
        timeout: 30_000,
        interval: 100,
      });
      const sentAfterMs = Date.now() - startedAt;
      // Each report follows its part by the simulator's 1 s; a report refused never comes.
      const messages = await vi
        .waitFor(
          async () => {
            const all = await listAllMessages(harness.api);
            expect(stateCounts(all)).toEqual({ Delivered: MESSAGES });
            return all;
          },
          { timeout: 10_000, interval: 200 },
        )
        .catch(() => listAllMessages(harness.api));
      console.info('20-slot SIM', {
        states: stateCounts(messages),
        refusedReports: refusedReports(harness),
        mostStoredOnSim: mostStored,
        allPartsSentAfterMs: sentAfterMs,
      });
      expect(refusedReports(harness)).toBe(0);
      expect(new Set(messages.map(outcome))).toEqual(new Set(['Delivered']));
    } finally {
      clearInterval(sampler);
    }
  }, 60_000);
});

describe('a one-slot SIM that cannot keep up with the reports', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await startWithSim(1);
  }, 30_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('marks every message whose report was refused, and no delivered one', async () => {
    await sendBurst(harness, MESSAGES);
    await vi.waitFor(() => expect(harness.acceptedBy(0)).toHaveLength(2 * MESSAGES), {
      timeout: 30_000,
      interval: 100,
    });
    const allowed = new Set(['Delivered', `Sent: ${REPORT_LOST_ERROR}`]);
    const messages = await vi.waitFor(
      async () => {
        const all = await listAllMessages(harness.api);
        expect(all.map(outcome).filter((seen) => !allowed.has(seen))).toEqual([]);
        return all;
      },
      { timeout: 15_000, interval: 200 },
    );
    console.info('1-slot SIM', {
      outcomes: Object.fromEntries(
        [...allowed].map((seen) => [seen, messages.filter((message) => outcome(message) === seen).length]),
      ),
      refusedReports: refusedReports(harness),
    });
  }, 60_000);
});

describe('a SIM whose every slot holds drafts the user saved', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await startWithSim(SIM_SLOTS);
    const modem = harness.ptyModem(0);
    for (let slot = 0; slot < SIM_SLOTS; slot++) {
      expect(modem.storeUnsent('+447700900999', `draft ${slot}`)).toBe(true);
    }
  }, 30_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('leaves the drafts, and says on each message that its report may be lost', async () => {
    const ids = await sendBurst(harness, 5);
    await vi.waitFor(() => expect(refusedReports(harness)).toBe(10), { timeout: 15_000, interval: 100 });
    const messages = await vi.waitFor(
      async () => {
        const all = await listAllMessages(harness.api);
        expect(all.map(outcome)).toEqual(ids.map(() => `Sent: ${REPORT_LOST_ERROR}`));
        return all;
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(messages).toHaveLength(5);
    expect(harness.ptyModem(0).storedOnSim).toBe(SIM_SLOTS);
  }, 30_000);
});
