import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { SendingPolicy } from '../../server/services/scheduler/scheduler.js';
import { type MessageSpec, SchedulerHarness } from './fakes.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

const MESSAGE_COUNT = 10_000;
const MODEM_IDS = ['m1', 'm2', 'm3'] as const;
const SIM_SLOTS = 2;
const SEND_MS_PER_RECIPIENT = 2 * SECOND;
const policy: SendingPolicy = {
  processingOrder: 'LIFO',
  sendIntervalMinSeconds: 5,
  sendIntervalMaxSeconds: 5,
  limitPeriod: 'PerMinute',
  limitValue: 6,
  simSelectionMode: 'RoundRobin',
  resendInterrupted: false,
  paused: false,
  workHours: null,
};

/** Small seeded PRNG (mulberry32) so the scenario is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Arrival {
  at: number;
  spec: MessageSpec;
}

/**
 * Messages arrive over about 11 hours, at ~17 a minute on average with bursts, a
 * little under the pool's capacity, so queues build up and drain again. Expiries and schedules
 * are relative to arrival.
 */
function scenario(start: number): Arrival[] {
  const random = seeded(20261122);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  let at = start;
  return Array.from({ length: MESSAGE_COUNT }, (_, index) => {
    if (random() < 0.975) at += Math.floor(-Math.log(1 - random()) * 3.6 * SECOND);
    const roll = random();
    const priority =
      roll < 0.05
        ? 100 + Math.floor(random() * 28)
        : roll < 0.2
          ? 1 + Math.floor(random() * 50)
          : roll < 0.3
            ? -10
            : 0;
    const spec: MessageSpec = {
      id: `msg${index}`,
      priority,
      phoneNumbers: random() < 0.2 ? ['+15550000001', '+15550000002'] : ['+15550000003'],
    };
    if (random() < 0.3) spec.scheduleAt = at + Math.floor(random() * 2 * HOUR);
    if (random() < 0.25) spec.validUntil = (spec.scheduleAt ?? at) + Math.floor(random() * 4 * MINUTE) + 1;
    if (random() < 0.05) spec.requestedDeviceId = pick(MODEM_IDS);
    if (random() < 0.1) spec.simNumber = 1 + Math.floor(random() * SIM_SLOTS);
    return { at, spec };
  });
}

/** Enqueues each message at its arrival time, one clock timer at a time. */
function scheduleArrivals(harness: SchedulerHarness, clock: ManualClock, arrivals: readonly Arrival[]): void {
  let next = 0;
  const arrive = () => {
    const batch: MessageSpec[] = [];
    while (next < arrivals.length && (arrivals[next]?.at ?? 0) <= clock.now()) {
      batch.push((arrivals[next] as Arrival).spec);
      next++;
    }
    void harness.enqueue(...batch);
    const following = arrivals[next];
    if (following) clock.setTimer(arrive, following.at - clock.now());
  };
  clock.setTimer(arrive, (arrivals[0]?.at ?? clock.now()) - clock.now());
}

interface Outcome {
  state: 'Sent' | 'Failed';
  deviceId?: string;
  /** When each recipient's send started, in recipient order. */
  sendTimes?: number[];
  simNumber?: number;
}

/**
 * The rules, restated as a plain discrete-event simulation, independent of the scheduler's code:
 * at each instant, sends that end free their modem (a fixed pause follows); expired messages
 * fail; then free modems, least loaded first (sends in the last minute, then least recently used,
 * then id), each take the best message they may carry: priority, then newest; pinned messages
 * only on their modem; scheduled ones not before their time; non-expedited ones only when the
 * pause is over and fewer than `limitValue` sends fell in the last minute.
 */
function model(arrivals: readonly Arrival[], start: number): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>();
  const waiting: { spec: MessageSpec; sequence: number }[] = [];
  let arrived = 0;
  const modems = MODEM_IDS.map((id) => ({
    id,
    busyUntil: -1,
    pauseUntil: -1,
    lastUsed: -1,
    sends: [] as number[],
    nextSlot: 0,
  }));
  const limit = policy.limitValue ?? 0;
  const pauseMs = (policy.sendIntervalMinSeconds ?? 0) * SECOND;
  const inWindow = (modem: (typeof modems)[number], now: number) =>
    modem.sends.filter((at) => at > now - MINUTE).length;
  const better = (left: (typeof waiting)[number], right: (typeof waiting)[number]) =>
    (left.spec.priority ?? 0) !== (right.spec.priority ?? 0)
      ? (left.spec.priority ?? 0) > (right.spec.priority ?? 0)
      : left.sequence > right.sequence;

  let now = start;
  while (waiting.length > 0 || arrived < arrivals.length) {
    for (const modem of modems) {
      if (modem.busyUntil === now) {
        modem.busyUntil = -1;
        modem.pauseUntil = now + pauseMs;
      }
      modem.sends = modem.sends.filter((at) => at > now - MINUTE);
    }
    while (arrived < arrivals.length && (arrivals[arrived]?.at ?? 0) <= now) {
      waiting.push({ spec: (arrivals[arrived] as Arrival).spec, sequence: arrived + 1 });
      arrived++;
    }
    for (let index = waiting.length - 1; index >= 0; index--) {
      const entry = waiting[index];
      if (entry?.spec.validUntil !== undefined && now >= entry.spec.validUntil) {
        outcomes.set(entry.spec.id, { state: 'Failed' });
        waiting.splice(index, 1);
      }
    }
    const free = modems
      .filter((modem) => modem.busyUntil < 0)
      .sort(
        (left, right) =>
          inWindow(left, now) - inWindow(right, now) ||
          left.lastUsed - right.lastUsed ||
          (left.id < right.id ? -1 : 1),
      );
    for (const modem of free) {
      const limited = now < modem.pauseUntil || inWindow(modem, now) >= limit;
      let best: (typeof waiting)[number] | undefined;
      for (const entry of waiting) {
        if (entry.spec.scheduleAt !== undefined && entry.spec.scheduleAt > now) continue;
        if (entry.spec.requestedDeviceId !== undefined && entry.spec.requestedDeviceId !== modem.id) continue;
        if (limited && (entry.spec.priority ?? 0) < 100) continue;
        if (!best || better(entry, best)) best = entry;
      }
      if (!best) continue;
      waiting.splice(waiting.indexOf(best), 1);
      let simNumber = best.spec.simNumber;
      if (simNumber === undefined) {
        simNumber = (modem.nextSlot % SIM_SLOTS) + 1;
        modem.nextSlot++;
      }
      const sendTimes = (best.spec.phoneNumbers ?? ['']).map(
        (_, index) => now + index * SEND_MS_PER_RECIPIENT,
      );
      outcomes.set(best.spec.id, { state: 'Sent', deviceId: modem.id, sendTimes, simNumber });
      modem.sends.push(now);
      modem.lastUsed = now;
      modem.busyUntil = now + SEND_MS_PER_RECIPIENT * sendTimes.length;
    }
    // Next instant anything can change.
    let next = arrivals[arrived]?.at ?? Number.POSITIVE_INFINITY;
    for (const modem of modems) {
      if (modem.busyUntil > now) next = Math.min(next, modem.busyUntil);
      if (modem.pauseUntil > now) next = Math.min(next, modem.pauseUntil);
      for (const at of modem.sends) if (at + MINUTE > now) next = Math.min(next, at + MINUTE);
    }
    for (const entry of waiting) {
      if (entry.spec.scheduleAt !== undefined && entry.spec.scheduleAt > now)
        next = Math.min(next, entry.spec.scheduleAt);
      if (entry.spec.validUntil !== undefined) next = Math.min(next, entry.spec.validUntil);
    }
    if (!Number.isFinite(next)) throw new Error('model stalled with messages waiting');
    now = next;
  }
  return outcomes;
}

describe('Scheduler acceptance', () => {
  it('sends 10,000 mixed messages through three limited modems exactly as the rules say', async () => {
    const clock = new ManualClock();
    const start = clock.now();
    const harness = new SchedulerHarness(clock, {
      policy,
      random: () => {
        throw new Error('nothing in this scenario should need a random draw');
      },
    });
    const modems = MODEM_IDS.map((id) =>
      harness.modem(id, { simSlots: SIM_SLOTS, sendMs: SEND_MS_PER_RECIPIENT }),
    );
    const arrivals = scenario(start);
    const specs = arrivals.map((arrival) => arrival.spec);
    const expected = model(arrivals, start);
    scheduleArrivals(harness, clock, arrivals);

    await harness.scheduler.start();
    await clock.advance((arrivals.at(-1)?.at ?? start) - start + 6 * HOUR);
    await harness.scheduler.stop();

    const sends = new Map<string, { deviceId: string; at: number; simNumber: number }[]>();
    for (const modem of modems) {
      for (const { at, request } of modem.sent) {
        const list = sends.get(request.messageId) ?? [];
        list.push({ deviceId: modem.deviceId, at, simNumber: request.simNumber });
        sends.set(request.messageId, list);
      }
    }
    const mismatches: string[] = [];
    for (const spec of specs) {
      const record = harness.message(spec.id);
      const sent = sends.get(spec.id) ?? [];
      const actual: Outcome =
        record.state === 'Sent'
          ? {
              state: 'Sent',
              deviceId: record.deviceId,
              sendTimes: sent.map((send) => send.at),
              simNumber: sent[0]?.simNumber,
            }
          : { state: record.state as Outcome['state'] };
      if (sent.some((send) => send.deviceId !== record.deviceId || send.simNumber !== sent[0]?.simNumber)) {
        mismatches.push(`${spec.id}: recipients sent through different modems or SIMs`);
      }
      if (record.state !== 'Sent' && sent.length > 0) mismatches.push(`${spec.id}: sent but ${record.state}`);
      if (
        record.state === 'Failed' &&
        record.recipients.some((recipient) => recipient.error !== 'TTL expired')
      ) {
        mismatches.push(`${spec.id}: failed for another reason than TTL`);
      }
      if (JSON.stringify(actual) !== JSON.stringify(expected.get(spec.id))) {
        mismatches.push(
          `${spec.id}: got ${JSON.stringify(actual)}, model ${JSON.stringify(expected.get(spec.id))}`,
        );
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);

    // The scenario must exercise what it claims to.
    const outcomes = [...expected.values()];
    expect(outcomes.filter((outcome) => outcome.state === 'Failed').length).toBeGreaterThan(100);
    expect(outcomes.filter((outcome) => outcome.state === 'Sent').length).toBeGreaterThan(5000);
    expect(modems.every((modem) => modem.sent.length > 1000)).toBe(true);
  });
});
