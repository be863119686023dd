/**
 * The second security review (issue 36), item 1: a regular expression written by a user (a
 * modem's balance pattern) against a text written by the network, on the whole gateway
 * (createGateway on loopback, the built-in simulated modem).
 * RELIABILITY.md, "Security review (issue 36)", lists which check lives where.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRecord } from '../../server/logging/logger.js';
import { waitForReadyModems } from '../integration/support/apiReads.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';

/** Backtracks through 2^n paths on any text of n characters without an X. */
const runaway = '(.|.)*X';
/** Far above what a healthy event loop takes here, even on a loaded machine. */
const loopLimitMs = 1_000;

let harness: GatewayHarness;
let deviceId: string;

beforeAll(async () => {
  harness = await startGatewayHarness({ simulatedModems: 1 });
  await waitForReadyModems(harness.api, 1);
  const devices = await harness.api.get<{ id: string }[]>('/devices');
  const id = devices.body[0]?.id;
  if (!id) throw new Error('no simulated modem');
  deviceId = id;
});

afterAll(async () => {
  await harness?.close();
});

function simulatedModem() {
  const modem = harness.gateway.simulatedModems[0];
  if (!modem) throw new Error('no simulated modem');
  return modem;
}

/** How long the gateway takes to answer /health/live now. */
async function liveAnswerMs(): Promise<number> {
  const started = performance.now();
  const response = await harness.api.get('/health/live');
  expect(response.status).toBe(200);
  return performance.now() - started;
}

/**
 * The longest the event loop stood still while `work` ran: the widest gap between the ticks of
 * a 10 ms interval. The gateway runs in this process, so a pattern run on its event loop stalls
 * these ticks too.
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticks = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  try {
    const result = await work();
    stallMs = Math.max(stallMs, performance.now() - last);
    return { result, stallMs };
  } finally {
    clearInterval(ticks);
  }
}

const warningsAbout = (key: string, value: string): LogRecord[] =>
  harness.logs.filter((record) => record.priority === 'WARN' && record.context?.[key] === value);

describe('a balance pattern that never ends (review 36, item 1)', () => {
  interface Operations {
    balancePattern: string | null;
    balancePatternDisabled?: { reason: string; at: string };
    lastBalance?: { answer: string; amount?: number };
  }
  const operations = () => harness.api.get<Operations>(`/gateway/v1/devices/${deviceId}/operations`);

  it('keeps /health/live answering, switches the pattern off, reports it, and never runs it again', async () => {
    // Short enough that a gateway running the pattern on its event loop comes back (after tens
    // of seconds), so this test fails instead of hanging; long enough to outlast any budget.
    simulatedModem().setUssdService('*100#', { answer: 'Your balance is 12.50 EUR.' });
    const put = await harness.api.request<Operations>('PUT', `/gateway/v1/devices/${deviceId}/operations`, {
      json: { balanceCode: '*100#', balancePattern: runaway },
    });
    expect(put.status).toBe(200);

    const check = harness.api.post<{ answer: string; amount?: number }>(
      `/gateway/v1/devices/${deviceId}/balance`,
      {},
    );
    let settled = false;
    void check.finally(() => {
      settled = true;
    });
    const liveTimes: number[] = [];
    while (!settled || liveTimes.length < 3) liveTimes.push(await liveAnswerMs());
    expect(Math.max(...liveTimes)).toBeLessThan(loopLimitMs);

    const reading = await check;
    expect(reading.status).toBe(200);
    expect(reading.body.answer).toBe('Your balance is 12.50 EUR.');
    expect(reading.body.amount).toBeUndefined();
    const shown = await operations();
    expect(shown.body.balancePattern).toBe(runaway);
    expect(shown.body.balancePatternDisabled).toEqual({ reason: 'timed-out', at: expect.any(String) });
    expect(warningsAbout('pattern', runaway)).toHaveLength(1);

    // Not retried: by the button, nor by the check the schedule runs after a restart.
    const again = await longestStall(() => harness.api.post(`/gateway/v1/devices/${deviceId}/balance`, {}));
    expect(again.result.status).toBe(200);
    expect(again.stallMs).toBeLessThan(loopLimitMs);
    await harness.restart();
    await waitForReadyModems(harness.api, 1);
    expect(await liveAnswerMs()).toBeLessThan(loopLimitMs);
    expect((await operations()).body.balancePatternDisabled?.reason).toBe('timed-out');
    expect(warningsAbout('pattern', runaway)).toHaveLength(1);

    // Saving the other settings keeps it off; a new pattern is run again.
    const threshold = await harness.api.request<Operations>(
      'PUT',
      `/gateway/v1/devices/${deviceId}/operations`,
      { json: { balanceCode: '*100#', balancePattern: runaway, lowBalanceThreshold: 5 } },
    );
    expect(threshold.body.balancePatternDisabled?.reason).toBe('timed-out');
    const fixed = await harness.api.request<Operations>('PUT', `/gateway/v1/devices/${deviceId}/operations`, {
      json: { balanceCode: '*100#', balancePattern: 'balance is ([\\d.]+)' },
    });
    expect(fixed.body.balancePatternDisabled).toBeUndefined();
    const read = await harness.api.post<{ amount?: number }>(`/gateway/v1/devices/${deviceId}/balance`, {});
    expect(read.body.amount).toBe(12.5);
  }, 120_000);
});
