import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { NOT_SENT_DEVICE_GONE_ERROR, TTL_EXPIRED_ERROR } from '../../server/contract/domain/failureTexts.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';
import { MODEM_UNAVAILABLE_BACKOFF_MS } from '../../server/services/scheduler/modemParking.js';
import { fruitlessWalkMs, windowSize } from '../../server/services/scheduler/readyQueue.js';
import { SchedulerHarness, sentIds } from './fakes.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

async function started(harness: SchedulerHarness): Promise<SchedulerHarness> {
  await harness.scheduler.start();
  return harness;
}

describe('Scheduler: hand-over', () => {
  it('hands a message to an idle modem in the turn it is queued, with no timer in between', async () => {
    const clock = new ManualClock();
    const harness = await started(new SchedulerHarness(clock));
    harness.modem('m1');
    // No clock.advance: a zero-delay timer would never fire here. The hand-over must happen in
    // the same turn, so that its Processed mark joins the commit of the message's insert.
    await harness.enqueue({ id: 'a' });
    expect(harness.message('a').state).toBe('Processed');
  });

  it('still takes the best of the messages queued in one turn, not the first one told', async () => {
    const clock = new ManualClock();
    const harness = await started(new SchedulerHarness(clock));
    harness.modem('m1');
    await harness.enqueue({ id: 'low' }, { id: 'high', priority: 100 });
    expect([harness.message('low').state, harness.message('high').state]).toEqual(['Pending', 'Processed']);
  });
});

describe('Scheduler: a long queue', () => {
  it('reads the queue a window at a time while only hand-overs change it, not once per hand-over', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { processingOrder: 'FIFO' } });
    const modem = harness.modem('m1', { sendMs: 1000 });
    await harness.enqueue(...Array.from({ length: 1_000 }, (_, index) => ({ id: `m${index}` })));
    const reads = vi.spyOn(harness.repository, 'waiting');
    await started(harness);
    await clock.advance(300 * SECOND);
    expect(sentIds(modem)).toEqual(Array.from({ length: 300 }, (_, index) => `m${index}`));
    // The first window, then a top-up each time half of it was handed over: 300 hand-overs, 3 reads.
    expect(reads.mock.calls.map(([, , limit]) => limit)).toEqual([
      windowSize,
      windowSize / 2,
      windowSize / 2,
    ]);
  });

  it('sends a modem that may carry none of a long queue past the window once per while, not per scan', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { processingOrder: 'FIFO' } });
    const idle = harness.modem('m1', { sendMs: 1000 });
    const pinned = harness.modem('m2', { sendMs: 1000 });
    const queued = 2 * windowSize + 100;
    await harness.enqueue(
      ...Array.from({ length: queued }, (_, index) => ({ id: `p${index}`, requestedDeviceId: 'm2' })),
    );
    const reads = vi.spyOn(harness.repository, 'waiting');
    const deepReads = () =>
      reads.mock.calls.filter(([, , limit, after]) => limit === windowSize && after).length;
    await started(harness);
    await clock.advance(60 * SECOND);
    expect(sentIds(pinned)).toHaveLength(60);
    expect(idle.sent).toHaveLength(0);
    // 60 scans; m1 walks the rest of the queue (two pages) once per fruitlessWalkMs (5 s): 13
    // walks, where a walk per scan would read 120 pages.
    expect(fruitlessWalkMs).toBe(5 * SECOND);
    expect(deepReads()).toBeLessThanOrEqual(26);
    expect(deepReads()).toBeGreaterThan(0);
    // A message m1 may carry, queued behind the rest, is found at once.
    await harness.enqueue({ id: 'free' });
    await clock.advance(2 * SECOND);
    expect(sentIds(idle)).toEqual(['free']);
  });

  it('orders a message queued, an expiry or a schedule falling due into the kept order', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { processingOrder: 'FIFO' } });
    const modem = harness.modem('m1', { sendMs: 1000 });
    const start = clock.now();
    await harness.enqueue(
      { id: 'a' },
      { id: 'b' },
      { id: 'c', validUntil: start + 1500 },
      { id: 'later', scheduleAt: start + 2500 },
      { id: 'd' },
    );
    await started(harness);
    await clock.advance(500);
    await harness.enqueue({ id: 'urgent', priority: 50 });
    await clock.advance(10 * SECOND);
    expect(sentIds(modem)).toEqual(['a', 'urgent', 'b', 'later', 'd']);
    expect(harness.message('c').state).toBe('Failed');
  });
});

describe('Scheduler: order', () => {
  it('sends newest first for equal priority by default (LIFO)', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'a' }, { id: 'b' }, { id: 'c' });
    await started(harness);
    await clock.advance(10 * SECOND);
    expect(sentIds(modem)).toEqual(['c', 'b', 'a']);
  });

  it('sends oldest first when the processing order is FIFO', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { processingOrder: 'FIFO' } });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'a' }, { id: 'b' }, { id: 'c' });
    await started(harness);
    await clock.advance(10 * SECOND);
    expect(sentIds(modem)).toEqual(['a', 'b', 'c']);
  });

  it('sends higher priority first whatever the enqueue order', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { processingOrder: 'FIFO' } });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'low', priority: -5 }, { id: 'mid' }, { id: 'high', priority: 50 });
    await started(harness);
    await clock.advance(10 * SECOND);
    expect(sentIds(modem)).toEqual(['high', 'mid', 'low']);
  });
});

describe('Scheduler: pacing and limits', () => {
  it('pauses between sends of a modem for a random time within the send interval', async () => {
    const clock = new ManualClock();
    const draws = [0, 0.5, 1];
    const harness = new SchedulerHarness(clock, {
      policy: { sendIntervalMinSeconds: 10, sendIntervalMaxSeconds: 20, processingOrder: 'FIFO' },
      random: () => draws.shift() ?? 0,
    });
    const modem = harness.modem('m1', { sendMs: 1000 });
    const start = clock.now();
    await harness.enqueue({ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' });
    await started(harness);
    await clock.advance(5 * MINUTE);
    // Each send takes 1 s; pauses of 10 s, 15 s and 20 s follow.
    expect(modem.sent.map((entry) => (entry.at - start) / SECOND)).toEqual([0, 11, 27, 48]);
  });

  it('allows at most limit_value sends per sliding window, not per fixed bucket', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, {
      policy: { limitPeriod: 'PerMinute', limitValue: 2, processingOrder: 'FIFO' },
    });
    const modem = harness.modem('m1', { sendMs: 1000 });
    // Start 50 s into a clock minute: a fixed bucket would allow 2 more at the minute boundary.
    await clock.advance(50 * SECOND);
    const start = clock.now();
    await harness.enqueue({ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }, { id: 'e' });
    await started(harness);
    await clock.advance(5 * MINUTE);
    expect(modem.sent.map((entry) => (entry.at - start) / SECOND)).toEqual([0, 1, 60, 61, 120]);
  });

  it('keeps a separate window per modem, so two modems send twice as many', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { limitPeriod: 'PerHour', limitValue: 2 } });
    const first = harness.modem('m1');
    const second = harness.modem('m2');
    await harness.enqueue(...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id })));
    await started(harness);
    await clock.advance(30 * MINUTE);
    expect(first.sent).toHaveLength(2);
    expect(second.sent).toHaveLength(2);
    expect(harness.scheduler.status()).toMatchObject({ pending: 2, holding: { reason: 'rate-limit' } });
  });

  it('lets priority 100 jump ahead at once while others wait on the limit', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { limitPeriod: 'PerHour', limitValue: 1 } });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'first' }, { id: 'waiting' });
    await started(harness);
    await clock.advance(10 * MINUTE);
    await harness.enqueue({ id: 'urgent', priority: 100 });
    await clock.advance(2 * SECOND);
    expect(sentIds(modem)).toEqual(['waiting', 'urgent']);
    expect(harness.message('first').state).toBe('Pending');
  });

  it('lets priority 100 skip the send interval too', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, {
      policy: { sendIntervalMinSeconds: 600, sendIntervalMaxSeconds: 600 },
    });
    const modem = harness.modem('m1', { sendMs: 1000 });
    await harness.enqueue({ id: 'normal' });
    await started(harness);
    await clock.advance(5 * SECOND);
    await harness.enqueue({ id: 'other' }, { id: 'urgent', priority: 127 });
    await clock.advance(5 * SECOND);
    expect(sentIds(modem)).toEqual(['normal', 'urgent']);
  });

  it('applies a changed limit without a restart', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { limitPeriod: 'PerDay', limitValue: 1 } });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'a' }, { id: 'b' }, { id: 'c' });
    await started(harness);
    await clock.advance(MINUTE);
    expect(modem.sent).toHaveLength(1);
    harness.setPolicy({ limitPeriod: 'Disabled' });
    await clock.advance(MINUTE);
    expect(modem.sent).toHaveLength(3);
  });

  it('explains a rate-limit hold with the time of the next send', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { limitPeriod: 'PerMinute', limitValue: 1 } });
    harness.modem('m1');
    const start = clock.now();
    await harness.enqueue({ id: 'a' }, { id: 'b' });
    await started(harness);
    await clock.advance(18 * SECOND);
    expect(harness.scheduler.status()).toEqual({
      pending: 1,
      sending: 0,
      holding: {
        reason: 'rate-limit',
        nextAttemptAt: start + MINUTE,
        detail: 'rate limit: next send in 42 s',
        deviceId: 'm1',
      },
    });
  });
});

describe('Scheduler: holds', () => {
  it('explains a send-interval hold', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, {
      policy: { sendIntervalMinSeconds: 30, sendIntervalMaxSeconds: 30 },
    });
    harness.modem('m1', { sendMs: 1000 });
    await harness.enqueue({ id: 'a' }, { id: 'b' });
    await started(harness);
    await clock.advance(11 * SECOND);
    expect(harness.scheduler.status().holding).toMatchObject({
      reason: 'send-interval',
      detail: 'send interval: next send in 20 s',
    });
  });

  it('explains that no modem is online', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(SECOND);
    expect(harness.scheduler.status()).toMatchObject({
      pending: 1,
      sending: 0,
      holding: { reason: 'no-modem' },
    });
  });

  it('reports no hold once the queue is empty', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    harness.modem('m1');
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(MINUTE);
    expect(harness.scheduler.status()).toEqual({ pending: 0, sending: 0 });
  });
});

describe('Scheduler: expiry and schedule', () => {
  it('fails a message whose validUntil passes while it waits on the rate limit', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { limitPeriod: 'PerHour', limitValue: 1 } });
    const modem = harness.modem('m1');
    const start = clock.now();
    await harness.enqueue({ id: 'short', validUntil: start + 10 * MINUTE }, { id: 'first', priority: 1 });
    await started(harness);
    await clock.advance(10 * MINUTE - 1);
    expect(harness.message('short').state).toBe('Pending');
    await clock.advance(1);
    const expired = harness.message('short');
    expect(expired.state).toBe('Failed');
    expect(expired.recipients[0]).toMatchObject({
      state: 'Failed',
      error: TTL_EXPIRED_ERROR,
      failure: { code: 'ttl-expired' },
    });
    expect(sentIds(modem)).toEqual(['first']);
  });

  it('fails an expired message even when no modem is online', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    await harness.enqueue({ id: 'a', validUntil: clock.now() + MINUTE });
    await started(harness);
    await clock.advance(MINUTE);
    expect(harness.message('a').recipients[0]?.error).toBe(TTL_EXPIRED_ERROR);
  });

  it('does not send a message before its scheduleAt', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const modem = harness.modem('m1');
    const at = clock.now() + 30 * MINUTE;
    await harness.enqueue({ id: 'later', scheduleAt: at });
    await started(harness);
    await clock.advance(30 * MINUTE - 1);
    expect(modem.sent).toHaveLength(0);
    expect(harness.scheduler.status().holding).toMatchObject({ reason: 'scheduled', nextAttemptAt: at });
    await clock.advance(1 + SECOND);
    expect(modem.sent.map((entry) => entry.at)).toEqual([at]);
  });
});

describe('Scheduler: modem and SIM choice', () => {
  it('waits for the requested modem while it is offline, then sends through it', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const other = harness.modem('m1');
    const pinned = harness.modem('m2', { online: false });
    await harness.enqueue({ id: 'pinned', requestedDeviceId: 'm2' });
    await started(harness);
    await clock.advance(MINUTE);
    expect(other.sent).toHaveLength(0);
    expect(harness.scheduler.status().holding).toMatchObject({ reason: 'no-modem' });
    expect(harness.scheduler.status().holding?.detail).toContain('m2');
    harness.devices.setOnline('m2', true);
    await clock.advance(2 * SECOND);
    expect(sentIds(pinned)).toEqual(['pinned']);
    expect(harness.message('pinned').deviceId).toBe('m2');
  });

  it('balances sends across three modems', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { sendIntervalMinSeconds: 5 } });
    const modems = [harness.modem('m1'), harness.modem('m2'), harness.modem('m3')];
    await harness.enqueue(...Array.from({ length: 30 }, (_, index) => ({ id: `msg${index}` })));
    await started(harness);
    await clock.advance(10 * MINUTE);
    expect(modems.map((modem) => modem.sent.length)).toEqual([10, 10, 10]);
  });

  it('uses only modems seen within deviceActiveWithinHours', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    // m1 would be chosen first (same load, lower id) if it were not stale.
    const stale = harness.modem('m1');
    const fresh = harness.modem('m2');
    stale.lastSeen = clock.now() - 3 * 3_600_000;
    await harness.enqueue({ id: 'recent-only', deviceActiveWithinHours: 2 });
    await started(harness);
    await clock.advance(MINUTE);
    expect(stale.sent).toHaveLength(0);
    expect(sentIds(fresh)).toEqual(['recent-only']);
  });

  it('sends on the SIM the client asked for', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { simSelectionMode: 'RoundRobin' } });
    const modem = harness.modem('m1', { simSlots: 3 });
    await harness.enqueue({ id: 'a', simNumber: 3 });
    await started(harness);
    await clock.advance(MINUTE);
    expect(modem.sent[0]?.request.simNumber).toBe(3);
  });

  it.each([
    ['OSDefault', [], [1, 1, 1, 1]],
    ['RoundRobin', [], [1, 2, 3, 1]],
    ['Random', [0.9, 0.1, 0.5, 0.34], [3, 1, 2, 2]],
  ] as const)('chooses SIM slots by the %s mode', async (mode, draws, slots) => {
    const clock = new ManualClock();
    const queue = [...draws];
    const harness = new SchedulerHarness(clock, {
      policy: { simSelectionMode: mode, processingOrder: 'FIFO' },
      random: () => queue.shift() ?? 0,
    });
    const modem = harness.modem('m1', { simSlots: 3 });
    await harness.enqueue({ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' });
    await started(harness);
    await clock.advance(MINUTE);
    expect(modem.sent.map((entry) => entry.request.simNumber)).toEqual(slots);
  });

  it.each([
    ['OSDefault', [], [2, 2, 2, 2]],
    ['RoundRobin', [], [2, 3, 2, 3]],
    ['Random', [0.9, 0.1, 0.5, 0.34], [3, 2, 3, 2]],
  ] as const)('chooses by the %s mode among the SIM slots routing allows', async (mode, draws, slots) => {
    const clock = new ManualClock();
    const queue = [...draws];
    const harness = new SchedulerHarness(clock, {
      policy: { simSelectionMode: mode, processingOrder: 'FIFO' },
      random: () => queue.shift() ?? 0,
      mayRoute: () => [2, 3],
    });
    const modem = harness.modem('m1', { simSlots: 3 });
    await harness.enqueue({ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' });
    await started(harness);
    await clock.advance(MINUTE);
    expect(modem.sent.map((entry) => entry.request.simNumber)).toEqual(slots);
  });

  it('keeps a message on a modem whose slots routing allows none of', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, {
      mayRoute: (_message, modem) => (modem.deviceId === 'm2' ? [1] : []),
    });
    const first = harness.modem('m1', { simSlots: 2 });
    const second = harness.modem('m2');
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(MINUTE);
    expect(first.sent).toHaveLength(0);
    expect(sentIds(second)).toEqual(['a']);
  });
});

describe('Scheduler: sending', () => {
  it('skips a message cancelled while it waited', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { limitPeriod: 'PerHour', limitValue: 1 } });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'a' }, { id: 'b' });
    await started(harness);
    await clock.advance(MINUTE);
    await harness.lifecycle.cancel('a');
    harness.scheduler.wake();
    await clock.advance(2 * 60 * MINUTE);
    expect(sentIds(modem)).toEqual(['b']);
    expect(harness.message('a').state).toBe('Cancelled');
  });

  it('sends every recipient and records the references the modem answered', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const modem = harness.modem('m1');
    modem.behaviour = (request) => ({ references: request.recipient === '+1555' ? [7, 8] : [9] });
    await harness.enqueue({ id: 'a', phoneNumbers: ['+1555', '+1666'] });
    await started(harness);
    await clock.advance(MINUTE);
    const message = harness.message('a');
    expect(message.state).toBe('Sent');
    expect(message.deviceId).toBe('m1');
    expect(message.recipients.map((recipient) => recipient.parts)).toEqual([
      [{ reference: 7 }, { reference: 8 }],
      [{ reference: 9 }],
    ]);
  });

  it('marks the recipient Failed with the modem text when the modem answers +CMS ERROR 500', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const modem = harness.modem('m1');
    modem.behaviour = () => new GatewayError(ErrorCode.CmsError, '+CMS ERROR: 500', { modemCode: 500 });
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(MINUTE);
    expect(harness.message('a').recipients[0]).toMatchObject({
      state: 'Failed',
      error: '+CMS ERROR: 500',
      failure: { code: 'modem-refused', modemCode: 500 },
    });
  });

  it('marks the recipient Failed as possibly sent when the send was interrupted', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const modem = harness.modem('m1');
    modem.behaviour = () => new GatewayError(ErrorCode.SendInterrupted, 'timeout after the PDU');
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(MINUTE);
    expect(harness.message('a').recipients[0]).toMatchObject({
      state: 'Failed',
      error: 'interrupted; may have been sent',
    });
  });

  it('re-queues a message the modem refused as unavailable and sends it on another modem', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const refusing = harness.modem('m1');
    refusing.behaviour = () => new GatewayError(ErrorCode.ModemUnavailable, 'port closed');
    const other = harness.modem('m2', { online: false });
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(5 * SECOND);
    expect(harness.message('a').state).toBe('Pending');
    harness.devices.setOnline('m2', true);
    await clock.advance(5 * SECOND);
    expect(sentIds(other)).toEqual(['a']);
    expect(harness.message('a')).toMatchObject({ state: 'Sent', deviceId: 'm2' });
  });

  it('offers work again to a modem that was unavailable once its back-off ends', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const modem = harness.modem('m1');
    let refusals = 1;
    modem.behaviour = () =>
      refusals-- > 0 ? new GatewayError(ErrorCode.ModemUnavailable, 'recovering') : { references: [1] };
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(MODEM_UNAVAILABLE_BACKOFF_MS);
    expect(modem.sent).toHaveLength(0);
    await clock.advance(2 * SECOND);
    expect(harness.message('a').state).toBe('Sent');
  });

  it('offers work at once to a modem that refused while going down and is ready again', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const modem = harness.modem('m1');
    let refusals = 1;
    modem.behaviour = () => {
      if (refusals-- <= 0) return { references: [1] };
      // Unplugged between the scan and the send: the driver refuses and the pool says so.
      harness.devices.setOnline('m1', false);
      return new GatewayError(ErrorCode.ModemUnavailable, 'offline');
    };
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(5 * SECOND);
    expect(harness.message('a').state).toBe('Pending');
    harness.devices.setOnline('m1', true);
    await clock.advance(SECOND);
    expect(harness.message('a').state).toBe('Sent');
  });

  it('keeps a modem that refuses while it says it is ready parked for the whole back-off', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const modem = harness.modem('m1');
    let refusals = 1;
    modem.behaviour = () =>
      refusals-- > 0 ? new GatewayError(ErrorCode.ModemUnavailable, 'refused') : { references: [1] };
    await harness.enqueue({ id: 'a' });
    await started(harness);
    // Signal and registration updates raise changes without the modem ever going down.
    harness.devices.setOnline('m1', true);
    await clock.advance(MODEM_UNAVAILABLE_BACKOFF_MS - SECOND);
    expect(harness.message('a').state).toBe('Pending');
    await clock.advance(5 * SECOND);
    expect(harness.message('a').state).toBe('Sent');
  });

  it('sends the decrypted content and numbers but records states under the stored numbers', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, {
      decrypt: (message) => ({
        ...message,
        content: { kind: 'text', text: 'plain text' },
        recipients: message.recipients.map((recipient) => ({ ...recipient, phoneNumber: '+1999' })),
      }),
    });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'a', isEncrypted: true, phoneNumbers: ['$cipher$'] });
    await started(harness);
    await clock.advance(MINUTE);
    expect(modem.sent[0]?.request).toMatchObject({ recipient: '+1999', content: { text: 'plain text' } });
    expect(harness.message('a').recipients[0]).toMatchObject({ phoneNumber: '$cipher$', state: 'Sent' });
  });

  it('fails a message it cannot decrypt without handing it to a modem', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, {
      decrypt: () => {
        throw new GatewayError(ErrorCode.ValidationFailed, 'wrong passphrase');
      },
    });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'a', isEncrypted: true });
    await started(harness);
    await clock.advance(MINUTE);
    expect(modem.sent).toHaveLength(0);
    expect(harness.message('a').recipients[0]?.error).toContain('decryption failed');
    expect(harness.message('a').recipients[0]?.failure).toEqual({ code: 'decryption-failed' });
  });

  it('does not hand a message to a modem that is not ready', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const modem = harness.modem('m1');
    modem.status = 'recovering';
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(MINUTE);
    expect(modem.sent).toHaveLength(0);
    modem.status = 'ready';
    harness.devices.setOnline('m1', true);
    await clock.advance(MINUTE);
    expect(sentIds(modem)).toEqual(['a']);
  });

  it('counts each send once in the window when the same scheduler is stopped and started again', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { limitPeriod: 'PerHour', limitValue: 2 } });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(MINUTE);
    await harness.scheduler.stop();
    await harness.scheduler.start();
    await harness.enqueue({ id: 'b' });
    await clock.advance(MINUTE);
    expect(sentIds(modem)).toEqual(['a', 'b']);
  });

  it('waits for a send in progress when stopped', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    harness.modem('m1', { sendMs: 10 * SECOND });
    await harness.enqueue({ id: 'a' }, { id: 'b' });
    await started(harness);
    await clock.advance(SECOND);
    const stopped = harness.scheduler.stop();
    await clock.advance(10 * SECOND);
    await stopped;
    await clock.advance(MINUTE);
    expect(harness.repository.inState('Sent').map((message) => message.id)).toEqual(['b']);
    expect(harness.message('a').state).toBe('Pending');
  });
});

describe('Scheduler: pause', () => {
  it('hands nothing to a modem while paused, says so, and resumes where it stopped', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { paused: true, processingOrder: 'FIFO' } });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'a' }, { id: 'b' });
    await started(harness);
    await clock.advance(10 * MINUTE);
    expect(sentIds(modem)).toEqual([]);
    expect(harness.scheduler.status().holding).toMatchObject({ reason: 'paused' });

    harness.setPolicy({ paused: false });
    await clock.advance(10 * SECOND);
    expect(sentIds(modem)).toEqual(['a', 'b']);
    expect(harness.scheduler.status().holding).toBeUndefined();
  });

  it('still expires a message whose TTL passes while sending is paused', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { paused: true } });
    harness.modem('m1');
    await harness.enqueue({ id: 'short', validUntil: clock.now() + 30 * SECOND });
    await started(harness);
    await clock.advance(31 * SECOND);
    const message = harness.repository.get('short');
    expect(message?.state).toBe('Failed');
    expect(message?.recipients[0]?.error).toBe(TTL_EXPIRED_ERROR);
  });
});

describe('Scheduler: working hours', () => {
  const nineToFive = { startMinute: 9 * 60, endMinute: 17 * 60, timeZone: 'UTC' };

  it('holds messages outside working hours, says until when, and sends them when the hours open', async () => {
    const clock = new ManualClock(Date.parse('2026-11-25T20:00:00Z'));
    const harness = new SchedulerHarness(clock, {
      policy: { workHours: nineToFive, processingOrder: 'FIFO' },
    });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'a' }, { id: 'b' });
    await started(harness);
    await clock.advance(12 * 60 * MINUTE);
    expect(sentIds(modem)).toEqual([]);
    expect(harness.scheduler.status().holding).toMatchObject({
      reason: 'work-hours',
      nextAttemptAt: Date.parse('2026-11-26T09:00:00Z'),
    });

    await clock.advance(61 * MINUTE);
    expect(sentIds(modem)).toEqual(['a', 'b']);
  });

  it('sends a message of priority 100 or more at any hour', async () => {
    const clock = new ManualClock(Date.parse('2026-11-25T20:00:00Z'));
    const harness = new SchedulerHarness(clock, { policy: { workHours: nineToFive } });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'routine' }, { id: 'urgent', priority: 100 });
    await started(harness);
    await clock.advance(10 * SECOND);
    expect(sentIds(modem)).toEqual(['urgent']);
  });

  it('lets waiting messages go at once when working hours are switched off', async () => {
    const clock = new ManualClock(Date.parse('2026-11-25T20:00:00Z'));
    const harness = new SchedulerHarness(clock, { policy: { workHours: nineToFive } });
    const modem = harness.modem('m1');
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(MINUTE);
    expect(sentIds(modem)).toEqual([]);
    harness.setPolicy({ workHours: null });
    await clock.advance(10 * SECOND);
    expect(sentIds(modem)).toEqual(['a']);
  });
});

describe('Scheduler: a member with a queue of its own (an Android phone)', () => {
  it('leaves a recipient the member holds Processed, and frees the member at once', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock, { policy: { processingOrder: 'FIFO' } });
    const phone = harness.modem('phone', { sendMs: 100 });
    phone.behaviour = () => ({ references: [], held: true });
    await harness.enqueue({ id: 'a' }, { id: 'b' });
    await started(harness);
    await clock.advance(SECOND);
    expect(sentIds(phone)).toEqual(['a', 'b']);
    expect(harness.message('a').state).toBe('Processed');
    expect(harness.message('b').state).toBe('Processed');
    expect(harness.scheduler.status().sending).toBe(0);
  });

  it('hands nothing more while the member says it takes no more, and goes on when it says so', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const phone = harness.modem('phone', { sendMs: 100 });
    phone.behaviour = () => ({ references: [], held: true });
    let freeAt = Number.POSITIVE_INFINITY;
    Object.assign(phone, { availableAt: (now: number) => Math.max(now, freeAt) });
    await harness.enqueue({ id: 'a' });
    await started(harness);
    await clock.advance(5 * SECOND);
    expect(phone.sent).toHaveLength(0);
    freeAt = clock.now() + 2 * SECOND;
    harness.devices.setOnline('phone', true);
    await clock.advance(SECOND);
    expect(phone.sent).toHaveLength(0);
    await clock.advance(2 * SECOND);
    expect(sentIds(phone)).toEqual(['a']);
  });

  it('fails, not re-queues, the rest of a message when the member goes away after holding part of it', async () => {
    const clock = new ManualClock();
    const harness = new SchedulerHarness(clock);
    const phone = harness.modem('phone', { sendMs: 100 });
    const other = harness.modem('modem', { online: false });
    phone.behaviour = (request) =>
      request.recipientIndex === 0
        ? { references: [], held: true }
        : new GatewayError(ErrorCode.ModemUnavailable, 'the phone does not answer');
    await harness.enqueue({ id: 'a', phoneNumbers: ['+15550000001', '+15550000002'] });
    await started(harness);
    await clock.advance(SECOND);
    harness.devices.setOnline('modem', true);
    await clock.advance(5 * SECOND);
    const message = harness.message('a');
    expect(message.deviceId).toBe('phone');
    expect(message.recipients.map((recipient) => recipient.state)).toEqual(['Processed', 'Failed']);
    expect(message.recipients[1]?.error).toBe(NOT_SENT_DEVICE_GONE_ERROR);
    expect(message.recipients[1]?.failure).toEqual({ code: 'device-gone' });
    expect(other.sent).toHaveLength(0);
  });
});
