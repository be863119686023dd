/**
 * The second security review (issue 36), items 1 and 4: regular expressions written by users
 * (a modem's balance pattern, auto-reply rules) against texts written by the network or by any
 * stranger, on the whole gateway (createGateway on loopback, the built-in simulated modem).
 * RELIABILITY.md, "Security review (issue 36)", lists which check lives where.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogRecord } from '../../server/logging/logger.js';
import { waitForReadyModems } from '../integration/support/apiReads.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';

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

describe('regular-expression rules (review 36, item 4)', () => {
  interface Rule {
    id: string;
    name: string;
    match: { kind: string; pattern: string };
    patternDisabled?: { reason: string; at: string };
  }
  interface Verdict {
    ruleId: string;
    applies: boolean;
    reason: string;
    patternState?: string;
  }
  const maxRegexRules = 50;
  const created: Rule[] = [];
  // No X anywhere, and long enough that the runaway pattern never ends on it.
  const strangerText = 'hello there, what are your opening hours today and tomorrow?';

  const evilRule = (index: number) => ({
    name: `Runaway ${index}`,
    match: { kind: 'regex', pattern: runaway },
    action: { kind: 'reply', text: 'Never sent.' },
  });

  it('refuses more than 50 regex rules with 400 naming match.kind', async () => {
    const refused: { status: number; message: string }[] = [];
    for (let index = 0; index < 100; index++) {
      const response = await harness.api.post<Rule & { message: string }>(
        '/gateway/v1/rules',
        evilRule(index),
      );
      if (response.status === 201) created.push(response.body);
      else refused.push({ status: response.status, message: response.body.message });
    }
    expect(created).toHaveLength(maxRegexRules);
    expect(refused).toHaveLength(100 - maxRegexRules);
    expect(refused.every((answer) => answer.status === 400 && answer.message.startsWith('match.kind'))).toBe(
      true,
    );

    // Nor can a rule of another kind be turned into the 51st.
    const plain = await harness.api.post<Rule>('/gateway/v1/rules', {
      name: 'Plain',
      match: { kind: 'contains', pattern: 'zzz-never' },
      action: { kind: 'reply', text: 'Never sent.' },
    });
    expect(plain.status).toBe(201);
    const turned = await harness.api.request<{ message: string }>(
      'PUT',
      `/gateway/v1/rules/${plain.body.id}`,
      {
        json: { ...evilRule(100), name: 'Plain' },
      },
    );
    expect(turned.status).toBe(400);
    expect(turned.body.message).toMatch(/^match\.kind/);
    // A regex rule edited stays within the cap.
    const first = created[0];
    if (!first) throw new Error('no rule created');
    const edited = await harness.api.request('PUT', `/gateway/v1/rules/${first.id}`, {
      json: { ...evilRule(0), name: 'Runaway 0, renamed' },
    });
    expect(edited.status).toBe(200);
  }, 60_000);

  it('tests a text against every rule within one budget, the event loop free, switching nothing off', async () => {
    const started = performance.now();
    const { result, stallMs } = await longestStall(() =>
      harness.api.post<Verdict[]>('/gateway/v1/rules/test', { text: strangerText }),
    );
    const tookMs = performance.now() - started;
    expect(result.status).toBe(200);
    expect(stallMs).toBeLessThan(loopLimitMs);
    const regexVerdicts = result.body.filter((verdict) => created.some((rule) => rule.id === verdict.ruleId));
    expect(regexVerdicts.map((verdict) => verdict.patternState)).toEqual([
      'timed-out',
      ...Array(maxRegexRules - 1).fill('not-run'),
    ]);
    expect(result.body.some((verdict) => verdict.applies)).toBe(false);
    // One budget for the message, not one per rule (50 budgets would take many seconds);
    // the rest is the thread's start and a loaded machine.
    expect(tookMs).toBeLessThan(10_000);
    // A read-only caller's sample text switches no rule off.
    const rules = await harness.api.get<Rule[]>('/gateway/v1/rules');
    expect(rules.body.filter((rule) => rule.patternDisabled)).toEqual([]);
  }, 60_000);

  it('refuses rule tests past a short line with 503, on a thread the live rules do not share', async () => {
    const tries = await Promise.all(
      Array.from({ length: 10 }, () =>
        harness.api.post<{ message: string }>('/gateway/v1/rules/test', { text: strangerText }),
      ),
    );
    const statuses = tries.map((answer) => answer.status);
    // Four waiting (and one running, once the thread is up) are answered; the rest are told to
    // try again, each batch taking a whole budget.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(4);
    const refused = tries.filter((answer) => answer.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    for (const answer of refused) expect(answer.body.message).toMatch(/rule test pattern thread is busy/);
  }, 60_000);

  it("runs the rules on a stranger's SMS within the budget and switches off the rule that ran out of time", async () => {
    const first = created[0];
    if (!first) throw new Error('no rule created');
    const { stallMs } = await longestStall(async () => {
      simulatedModem().injectIncoming({ sender: '+447700900601', text: strangerText });
      await pollUntil(() => warningsAbout('ruleId', first.id).length > 0, {
        what: 'the warning that the first rule is switched off',
        limitMs: 30_000,
      });
    });
    expect(stallMs).toBeLessThan(loopLimitMs);
    const rules = await harness.api.get<Rule[]>('/gateway/v1/rules');
    const off = rules.body.filter((rule) => rule.patternDisabled);
    expect(off.map((rule) => [rule.id, rule.patternDisabled?.reason])).toEqual([[first.id, 'timed-out']]);
    const verdicts = await harness.api.post<Verdict[]>('/gateway/v1/rules/test', { text: 'short' });
    expect(verdicts.body.find((verdict) => verdict.ruleId === first.id)?.patternState).toBe('disabled');

    // A new pattern switches it on again.
    const replaced = await harness.api.request<Rule>('PUT', `/gateway/v1/rules/${first.id}`, {
      json: { ...evilRule(0), match: { kind: 'regex', pattern: '^hello' } },
    });
    expect(replaced.body.patternDisabled).toBeUndefined();
  }, 60_000);
});
