import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { AttemptOutcome, OutboxJob } from '../../server/contract/domain/outboxJob.js';
import { silentLogger } from '../../server/logging/logger.js';
import { type JobHandler, type JobStore, Outbox } from '../../server/services/outbox/outbox.js';
import { openStorage } from '../../server/store/storage.js';
import { MemoryJobStore } from '../support/memoryJobStore.js';
import { pollUntil } from '../support/pollUntil.js';

const start = Date.UTC(2026, 0, 1, 12);
const outboxes: Outbox[] = [];
const handlers: ScriptedHandler[] = [];

afterEach(async () => {
  for (const handler of handlers.splice(0)) handler.answerAll();
  await Promise.all(outboxes.splice(0).map((outbox) => outbox.stop()));
});

function openOutbox<S extends JobStore>(store: S, clock = new ManualClock(start)) {
  const outbox = new Outbox({ store, clock, logger: silentLogger });
  outboxes.push(outbox);
  return { outbox, store, clock };
}

/** A handler whose attempts the test answers one by one. */
class ScriptedHandler implements JobHandler<string> {
  readonly tried: string[][] = [];
  private readonly answers: ((outcomes: AttemptOutcome[]) => void)[] = [];
  maxAttemptCount = 3;

  constructor(readonly lanes: JobHandler<string>['lanes']) {
    handlers.push(this);
  }

  attempt(jobs: readonly OutboxJob<string>[]): Promise<readonly AttemptOutcome[]> {
    this.tried.push(jobs.map((job) => job.payload));
    return new Promise((resolve) => this.answers.push(resolve));
  }

  maxAttempts(): number {
    return this.maxAttemptCount;
  }

  describe(job: OutboxJob<string>): string {
    return `job ${job.payload}`;
  }

  get waiting(): number {
    return this.answers.length;
  }

  /** Answers the oldest attempt still open, one outcome per job. */
  answer(...outcomes: AttemptOutcome[]): void {
    this.answers.shift()?.(outcomes);
  }

  /** The test is over: whatever is still open is left waiting, so the outbox can stop. */
  answerAll(): void {
    for (const answer of this.answers.splice(0)) answer([]);
  }
}

const done: AttemptOutcome = { kind: 'done' };
const failed: AttemptOutcome = { kind: 'failed', error: 'refused' };

describe('the outbox', () => {
  it('empties a strict lane in order, a batch at a time, and holds it behind a failure', async () => {
    const { outbox, store, clock } = openOutbox(new MemoryJobStore());
    const handler = new ScriptedHandler({ order: 'strict', batch: 2 });
    outbox.serve('fleet-report', handler);
    // Kept in one turn, as the reports of one commit.
    await Promise.all(
      ['a', 'b', 'c'].map((payload) => outbox.hold({ kind: 'fleet-report', lane: 'server', payload })),
    );
    await pollUntil(() => handler.waiting === 1);
    expect(handler.tried).toEqual([['a', 'b']]);
    expect(outbox.status()['fleet-report']).toEqual({
      pending: 3,
      oldestPendingAt: start,
      givenUpLastHour: 0,
    });
    handler.answer(done, failed);
    // b failed: c waits behind it, and b goes again after the first back-off (5 s).
    await pollUntil(() => store.records.size === 3 && [...store.records.values()][0]?.state === 'delivered');
    expect(handler.waiting).toBe(0);
    await clock.advance(5_000);
    await pollUntil(() => handler.waiting === 1);
    expect(handler.tried.at(-1)).toEqual(['b', 'c']);
    handler.answer(done, done);
    await pollUntil(() => outbox.pendingCount('fleet-report') === 0);
    const b = [...store.records.values()].find((job) => job.payload === 'b');
    expect(b).toMatchObject({ state: 'delivered', attemptCount: 2 });
    expect(b?.attempts.map((attempt) => attempt.error ?? 'ok')).toEqual(['refused', 'ok']);
  });

  it('tries up to its limit in parallel per lane, and lanes never wait for each other', async () => {
    const { outbox } = openOutbox(new MemoryJobStore());
    const handler = new ScriptedHandler({ order: 'parallel', inFlight: 2 });
    outbox.serve('webhook', handler);
    for (const payload of ['a1', 'a2', 'a3']) await outbox.hold({ kind: 'webhook', lane: 'a', payload });
    await outbox.hold({ kind: 'webhook', lane: 'b', payload: 'b1' });
    await pollUntil(() => handler.waiting === 3);
    expect(handler.tried.flat().sort()).toEqual(['a1', 'a2', 'b1']);
    handler.answer(done);
    await pollUntil(() => handler.tried.length === 4);
    expect(handler.tried.at(-1)).toEqual(['a3']);
  });

  it('gives a job up after its attempts, or at once when trying again cannot help', async () => {
    const { outbox, store, clock } = openOutbox(new MemoryJobStore());
    const handler = new ScriptedHandler({ order: 'parallel', inFlight: 4 });
    handler.maxAttemptCount = 2;
    outbox.serve('mail', handler);
    await outbox.hold({ id: 'mail:1', kind: 'mail', lane: 'relay', payload: 'retried' });
    await outbox.hold({ id: 'mail:2', kind: 'mail', lane: 'relay', payload: 'hopeless' });
    await pollUntil(() => handler.waiting === 2);
    handler.answer(failed);
    handler.answer({ kind: 'failed', error: 'malformed', final: true });
    await pollUntil(() => store.get('mail:2')?.state === 'failed');
    expect(store.get('mail:2')).toMatchObject({ attemptCount: 1, lastError: 'malformed' });
    await clock.advance(5_000);
    await pollUntil(() => handler.waiting === 1);
    handler.answer(failed);
    await pollUntil(() => store.get('mail:1')?.state === 'failed');
    expect(store.get('mail:1')?.attemptCount).toBe(2);
    expect(outbox.list({ kind: 'mail', state: 'failed', limit: 10 }).map((job) => job.id)).toEqual([
      'mail:2',
      'mail:1',
    ]);

    expect(outbox.status().mail).toEqual({ pending: 0, givenUpLastHour: 2 });

    const [resent] = await outbox.resend({ kind: 'mail', ids: ['mail:1'] });
    expect(resent).toMatchObject({ state: 'pending', attemptCount: 0 });
    expect(outbox.status().mail).toEqual({ pending: 1, oldestPendingAt: start, givenUpLastHour: 1 });
    await pollUntil(() => handler.waiting === 1);
    handler.answer(done);
    await pollUntil(() => store.get('mail:1')?.state === 'delivered');
    expect(store.get('mail:1')?.attempts).toHaveLength(3);
  });

  it('parks a job nobody may take until woken or a new job comes, without counting it', async () => {
    const { outbox, store } = openOutbox(new MemoryJobStore());
    const handler = new ScriptedHandler({ order: 'parallel', inFlight: 4 });
    outbox.serve('smpp', handler);
    await outbox.hold({ id: 'smpp:1', kind: 'smpp', lane: 'incoming', payload: 'first' });
    await pollUntil(() => handler.waiting === 1);
    handler.answer({ kind: 'wait', reason: 'no receiver' });
    await pollUntil(() => handler.waiting === 0);
    expect(handler.tried).toHaveLength(1);
    outbox.wake('smpp');
    await pollUntil(() => handler.waiting === 1);
    handler.answer({ kind: 'wait', reason: 'no receiver' });
    await pollUntil(() => handler.waiting === 0);
    await outbox.hold({ id: 'smpp:2', kind: 'smpp', lane: 'incoming', payload: 'second' });
    await pollUntil(() => handler.waiting === 2);
    handler.answer(done);
    handler.answer(done);
    await pollUntil(() => outbox.pendingCount('smpp') === 0);
    expect(store.get('smpp:1')).toMatchObject({ state: 'delivered', attemptCount: 1 });
  });

  it('keeps finished jobs a week as history, then prunes them; pending ones stay', async () => {
    const { outbox, store, clock } = openOutbox(new MemoryJobStore());
    const handler = new ScriptedHandler({ order: 'parallel', inFlight: 4 });
    outbox.serve('webhook', handler);
    await outbox.hold({ id: 'delivered', kind: 'webhook', lane: 'w', payload: 'one' });
    await outbox.hold({ id: 'waiting', kind: 'webhook', lane: 'w', payload: 'two' });
    await pollUntil(() => handler.waiting === 2);
    handler.answer(done);
    handler.answer({ kind: 'wait', reason: 'no receiver' });
    await pollUntil(() => store.get('delivered')?.state === 'delivered');
    await clock.advance(6 * 24 * 60 * 60_000);
    expect(store.get('delivered')).toBeDefined();
    await clock.advance(26 * 60 * 60_000);
    expect(store.get('delivered')).toBeUndefined();
    expect(store.get('waiting')?.state).toBe('pending');
  });

  it('resumes after a restart in the order jobs were kept, and keeps their history', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-outbox-'));
    try {
      const clock = new ManualClock(start);
      const first = await openStorage({ dataDir, clock, logger: silentLogger });
      const before = openOutbox(first.openCollection<OutboxJob>('outbox'), clock).outbox;
      for (const payload of ['one', 'two', 'three'])
        await before.hold({ kind: 'fleet-report', lane: 'server', payload });
      await before.stop();
      await first.close();

      const second = await openStorage({ dataDir, clock, logger: silentLogger });
      const { outbox } = openOutbox(second.openCollection<OutboxJob>('outbox'), clock);
      const handler = new ScriptedHandler({ order: 'strict', batch: 10 });
      outbox.serve('fleet-report', handler);
      await pollUntil(() => handler.waiting === 1);
      expect(handler.tried).toEqual([['one', 'two', 'three']]);
      handler.answer(done, done, done);
      await pollUntil(() => outbox.pendingCount('fleet-report') === 0);
      expect(outbox.list({ kind: 'fleet-report', state: 'delivered', limit: 10 })).toHaveLength(3);
      await outbox.stop();
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('never tries a job before the write that keeps it is durable', async () => {
    const store = new MemoryJobStore();
    let makeDurable = () => {};
    let held = false;
    // The first write waits until the test lets it be durable; later ones are durable at once.
    const slowStore: JobStore = {
      put: (job) => {
        if (held) return store.put(job);
        held = true;
        return new Promise<void>((resolve) => (makeDurable = () => void store.put(job).then(resolve)));
      },
      delete: (id) => store.delete(id),
      values: () => store.values(),
    };
    const { outbox } = openOutbox(slowStore);
    const handler = new ScriptedHandler({ order: 'parallel', inFlight: 4 });
    outbox.serve('webhook', handler);
    const kept = outbox.hold({ kind: 'webhook', lane: 'w', payload: 'x' });
    outbox.wake('webhook');
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(handler.tried).toEqual([]);
    makeDurable();
    await kept;
    await pollUntil(() => handler.waiting === 1);
    expect(handler.tried).toEqual([['x']]);
    handler.answer(done);
  });

  it('takes over a collection of an earlier version, job and removal in one commit', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-outbox-'));
    try {
      const clock = new ManualClock(start);
      const storage = await openStorage({ dataDir, clock, logger: silentLogger });
      const legacy = storage.openCollection<{ id: string; text: string; queuedAt: number }>('old-outbox');
      await legacy.put({ id: '2', text: 'later', queuedAt: start + 1 });
      await legacy.put({ id: '1', text: 'earlier', queuedAt: start });
      const { outbox } = openOutbox(storage.openCollection<OutboxJob>('outbox'), clock);
      const taken = await outbox.adopt(legacy, (record) => ({
        id: `mail:${record.id}`,
        kind: 'mail',
        lane: 'relay',
        payload: record.text,
        createdAt: record.queuedAt,
        state: 'pending',
        nextAttemptAt: record.queuedAt,
        attemptCount: 0,
        attempts: [],
      }));
      expect(taken).toBe(2);
      expect([...legacy.values()]).toEqual([]);
      const handler = new ScriptedHandler({ order: 'strict', batch: 10 });
      outbox.serve('mail', handler);
      await pollUntil(() => handler.waiting === 1);
      expect(handler.tried).toEqual([['earlier', 'later']]);
      handler.answer(done, done);
      await pollUntil(() => outbox.pendingCount('mail') === 0);
      await outbox.stop();
      await storage.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
