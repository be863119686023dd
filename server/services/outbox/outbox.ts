import { randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../../clock/clock.js';
import {
  type AttemptOutcome,
  type JobKind,
  JobKinds,
  type JobState,
  type KindStatus,
  type NewJob,
  type OutboxJob,
} from '../../contract/domain/outboxJob.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { KeyedCollection } from '../../store/keyedCollection.js';
import { retryDelayMs } from './retryPolicy.js';

/**
 * How a kind's lanes are emptied. `strict`: one batch at a time, in order, the next only once
 * the first is delivered or given up (reports whose order the receiver relies on). `parallel`:
 * up to `inFlight` jobs of a lane at once, oldest first (a slow webhook receiver never holds up
 * another lane, and one slow attempt does not hold up its own).
 */
export type LanePolicy = { order: 'strict'; batch: number } | { order: 'parallel'; inFlight: number };

/** What delivers one kind: the outbox keeps, orders, retries and records; the handler only tries. */
export interface JobHandler<P> {
  lanes: LanePolicy;
  /** Tries jobs of one lane (one, or a strict lane's batch); answers one outcome per job, in order. */
  attempt(jobs: readonly OutboxJob<P>[]): Promise<readonly AttemptOutcome[]>;
  /** Attempts before a job is given up; read at each failure, so a setting applies live. */
  maxAttempts(): number;
  /** The job in a log line ("webhook w1 (sms:received)"). */
  describe(job: OutboxJob<P>): string;
}

export interface OutboxQuery {
  kind: JobKind;
  lane?: string;
  state?: JobState;
  limit: number;
}

/** Where jobs are kept: the store's keyed collection `outbox`. */
export type JobStore = Pick<KeyedCollection<OutboxJob>, 'put' | 'delete' | 'values'>;

export interface OutboxDeps {
  store: JobStore;
  clock: Clock;
  logger: Logger;
  newId?: () => string;
  /** Finished jobs are kept this long as history, then pruned. Default 7 days. */
  retentionMs?: number;
}

interface Lane {
  key: string;
  /** Pending jobs in `seq` order. */
  jobs: OutboxJob[];
  busy: Set<string>;
}

const keptAttempts = 10;
const pruneIntervalMs = 60 * 60_000;
const hourMs = 60 * 60_000;

/** A job given up, remembered for an hour: what the status bar and the dispatcher count. */
export interface GivenUp {
  id: string;
  kind: JobKind;
  lane: string;
  at: number;
}

/**
 * The one outbox (the transactional outbox pattern): every delivery the gateway owes — webhook,
 * forwarded mail, SMPP deliver_sm, report to the private server — is a row written in the commit
 * of the fact it reports (`hold` inside `EventBus.onRecord`), tried once that commit is durable,
 * retried with one back-off, resumed after a restart, and kept as history once finished.
 */
export class Outbox {
  private readonly lanes = new Map<JobKind, Map<string, Lane>>();
  private readonly handlers = new Map<JobKind, JobHandler<unknown>>();
  /** Kept but not yet durable: never tried before the fact that owes them is on disk. */
  private readonly unconfirmed = new Set<string>();
  /** Waiting for a receiver, without a time: tried again on `wake` or a new job of the kind. */
  private readonly parked = new Map<string, JobKind>();
  private readonly running = new Map<Promise<void>, JobKind>();
  private givenUp: GivenUp[] = [];
  private readonly newId: () => string;
  private readonly retentionMs: number;
  private nextSeq = 1;
  private wakeTimer?: TimerHandle;
  private wakeAt = Number.POSITIVE_INFINITY;
  private pruneTimer?: TimerHandle;
  private pumpSoon?: NodeJS.Immediate;
  private stopped = false;

  constructor(private readonly deps: OutboxDeps) {
    this.newId = deps.newId ?? randomUUID;
    this.retentionMs = deps.retentionMs ?? 7 * 24 * 60 * 60_000;
    const hourAgo = deps.clock.now() - hourMs;
    for (const job of deps.store.values()) {
      this.nextSeq = Math.max(this.nextSeq, job.seq + 1);
      if (job.state === 'pending') this.laneOf(job).jobs.push(job);
      else if (job.state === 'failed' && (job.finishedAt ?? 0) >= hourAgo)
        this.givenUp.push({ id: job.id, kind: job.kind, lane: job.lane, at: job.finishedAt ?? 0 });
    }
    this.givenUp.sort((left, right) => left.at - right.at);
    for (const lanes of this.lanes.values())
      for (const lane of lanes.values()) lane.jobs.sort((left, right) => left.seq - right.seq);
    this.schedulePrune();
  }

  /**
   * Writes the job in the caller's open batch (call it in the turn that records the fact) and
   * tries it once that batch is durable; resolves then, with the job as kept.
   */
  hold<P>(job: NewJob<P>): Promise<OutboxJob<P>> {
    const now = this.deps.clock.now();
    const kept: OutboxJob<P> = {
      id: job.id ?? this.newId(),
      kind: job.kind,
      lane: job.lane,
      seq: this.nextSeq++,
      payload: job.payload,
      createdAt: now,
      state: 'pending',
      nextAttemptAt: now,
      attemptCount: 0,
      attempts: [],
    };
    const durable = this.deps.store.put(kept);
    this.unconfirmed.add(kept.id);
    this.replaceOrAdd(kept);
    return durable.then(
      () => {
        this.unconfirmed.delete(kept.id);
        this.unpark(kept.kind);
        this.pumpAfterThisTurn();
        return kept;
      },
      (error: unknown) => {
        this.unconfirmed.delete(kept.id);
        this.remove(kept);
        throw error;
      },
    );
  }

  /**
   * Takes over the records of a collection kept by an earlier version of a way out, as jobs:
   * each job and the removal of its record are written in one batch, so a crash keeps one or
   * the other. Resolves, once durable, with how many were taken over.
   */
  async adopt<L extends { id: string }>(
    legacy: KeyedCollection<L>,
    toJob: (record: L) => Omit<OutboxJob, 'seq'>,
  ): Promise<number> {
    const jobs = [...legacy.values()].map((record) => ({ record, job: toJob(record) }));
    jobs.sort((left, right) => left.job.createdAt - right.job.createdAt);
    const writes: Promise<void>[] = [];
    for (const { record, job } of jobs) {
      const kept: OutboxJob = { ...job, seq: this.nextSeq++ };
      writes.push(this.deps.store.put(kept), legacy.delete(record.id));
      if (kept.state === 'pending') this.replaceOrAdd(kept);
    }
    await Promise.all(writes);
    return jobs.length;
  }

  /**
   * Starts delivering `kind`'s jobs, those kept before a restart first. Answers the stop: no
   * new attempt, and it resolves once those under way have settled.
   */
  serve<P>(kind: JobKind, handler: JobHandler<P>): () => Promise<void> {
    this.handlers.set(kind, handler as JobHandler<unknown>);
    this.unpark(kind);
    const waiting = this.pendingCount(kind);
    if (waiting > 0) this.deps.logger.info(`resuming ${waiting} ${kind} deliveries from the outbox`);
    this.pump();
    return async () => {
      if (this.handlers.get(kind) === handler) this.handlers.delete(kind);
      await Promise.allSettled([...this.running].filter(([, of]) => of === kind).map(([run]) => run));
    };
  }

  /** A receiver is there again (a bind, the server answering): every pending job of `kind` is due now. */
  wake(kind: JobKind): void {
    const now = this.deps.clock.now();
    for (const lane of this.lanes.get(kind)?.values() ?? []) {
      for (const job of lane.jobs) {
        this.parked.delete(job.id);
        if (job.nextAttemptAt > now) job.nextAttemptAt = now;
      }
    }
    this.pump();
  }

  pending<P>(kind: JobKind): OutboxJob<P>[] {
    return [...(this.lanes.get(kind)?.values() ?? [])].flatMap((lane) => lane.jobs as OutboxJob<P>[]);
  }

  pendingCount(kind: JobKind): number {
    let count = 0;
    for (const lane of this.lanes.get(kind)?.values() ?? []) count += lane.jobs.length;
    return count;
  }

  /** Jobs of `kind` given up in the last hour and not sent again since, oldest first. */
  recentlyGivenUp(kind: JobKind): GivenUp[] {
    const hourAgo = this.deps.clock.now() - hourMs;
    this.givenUp = this.givenUp.filter((entry) => entry.at >= hourAgo);
    return this.givenUp.filter((entry) => entry.kind === kind);
  }

  /** Per kind, what waits and what was given up: read often, so from memory only. */
  status(): Record<JobKind, KindStatus> {
    const entries = JobKinds.map((kind): [JobKind, KindStatus] => {
      let oldest = Number.POSITIVE_INFINITY;
      for (const lane of this.lanes.get(kind)?.values() ?? [])
        oldest = Math.min(oldest, lane.jobs[0]?.createdAt ?? oldest);
      return [
        kind,
        {
          pending: this.pendingCount(kind),
          givenUpLastHour: this.recentlyGivenUp(kind).length,
          ...(oldest !== Number.POSITIVE_INFINITY ? { oldestPendingAt: oldest } : {}),
        },
      ];
    });
    return Object.fromEntries(entries) as Record<JobKind, KindStatus>;
  }

  /** The history, newest first: pending, delivered and given-up jobs. */
  list<P>(query: OutboxQuery): OutboxJob<P>[] {
    const matches: OutboxJob<P>[] = [];
    for (const job of this.deps.store.values()) {
      if (job.kind !== query.kind) continue;
      if (query.lane !== undefined && job.lane !== query.lane) continue;
      if (query.state !== undefined && job.state !== query.state) continue;
      matches.push(job as OutboxJob<P>);
    }
    return matches.sort((left, right) => right.seq - left.seq).slice(0, query.limit);
  }

  /**
   * "Send again": given-up jobs go back to pending with their attempts renewed (their past
   * attempts stay in the record). `ids` absent: every given-up one (of `lane` when given).
   */
  async resend<P>(filter: {
    kind: JobKind;
    ids?: readonly string[];
    lane?: string;
  }): Promise<OutboxJob<P>[]> {
    const wanted = filter.ids && new Set(filter.ids);
    const now = this.deps.clock.now();
    const resent: OutboxJob<P>[] = [];
    // Collected before writing: the store's iteration holds its statement open.
    const matching: OutboxJob[] = [];
    for (const job of this.deps.store.values()) {
      if (job.kind !== filter.kind || job.state !== 'failed') continue;
      if (wanted && !wanted.has(job.id)) continue;
      if (filter.lane !== undefined && job.lane !== filter.lane) continue;
      matching.push(job);
    }
    for (const job of matching) {
      const { finishedAt: _finishedAt, ...rest } = job;
      resent.push({ ...(rest as OutboxJob<P>), state: 'pending', nextAttemptAt: now, attemptCount: 0 });
    }
    await Promise.all(resent.map((job) => this.deps.store.put(job)));
    const resentIds = new Set(resent.map((job) => job.id));
    this.givenUp = this.givenUp.filter((entry) => !resentIds.has(entry.id));
    for (const job of resent) this.replaceOrAdd(job);
    this.pump();
    return resent;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pumpSoon) clearImmediate(this.pumpSoon);
    this.wakeTimer?.cancel();
    this.pruneTimer?.cancel();
    await Promise.allSettled([...this.running.keys()]);
  }

  /**
   * One pump for the jobs of a commit: they become durable together, and a strict lane sends
   * them in one batch.
   */
  private pumpAfterThisTurn(): void {
    this.pumpSoon ??= setImmediate(() => {
      this.pumpSoon = undefined;
      this.pump();
    });
  }

  /** Starts every due attempt the lanes have room for, then sleeps until the next one is due. */
  private pump(): void {
    if (this.stopped) return;
    const now = this.deps.clock.now();
    let nextDue = Number.POSITIVE_INFINITY;
    for (const [kind, handler] of this.handlers) {
      for (const lane of this.lanes.get(kind)?.values() ?? []) {
        const due =
          handler.lanes.order === 'strict'
            ? this.strictBatch(lane, handler.lanes.batch, now)
            : this.parallelDue(lane, handler.lanes.inFlight, now);
        nextDue = Math.min(nextDue, due.nextDue);
        for (const batch of due.batches) this.run(kind, handler, lane, batch);
      }
    }
    this.scheduleWake(nextDue);
  }

  private strictBatch(lane: Lane, size: number, now: number): { batches: OutboxJob[][]; nextDue: number } {
    const head = lane.jobs[0];
    if (lane.busy.size > 0 || !head || !this.mayTry(head)) return { batches: [], nextDue: Infinity };
    if (head.nextAttemptAt > now) return { batches: [], nextDue: head.nextAttemptAt };
    const batch: OutboxJob[] = [];
    for (const job of lane.jobs) {
      if (batch.length >= size || !this.mayTry(job)) break;
      batch.push(job);
    }
    return { batches: [batch], nextDue: Infinity };
  }

  private parallelDue(
    lane: Lane,
    inFlight: number,
    now: number,
  ): { batches: OutboxJob[][]; nextDue: number } {
    const batches: OutboxJob[][] = [];
    let nextDue = Number.POSITIVE_INFINITY;
    let busy = lane.busy.size;
    for (const job of lane.jobs) {
      if (busy >= inFlight) break;
      if (lane.busy.has(job.id) || !this.mayTry(job)) continue;
      if (job.nextAttemptAt > now) {
        nextDue = Math.min(nextDue, job.nextAttemptAt);
        continue;
      }
      batches.push([job]);
      busy++;
    }
    return { batches, nextDue };
  }

  private mayTry(job: OutboxJob): boolean {
    return !this.unconfirmed.has(job.id) && !this.parked.has(job.id);
  }

  private run(kind: JobKind, handler: JobHandler<unknown>, lane: Lane, jobs: OutboxJob[]): void {
    for (const job of jobs) lane.busy.add(job.id);
    const run = this.attempt(handler, jobs).finally(() => {
      for (const job of jobs) lane.busy.delete(job.id);
      this.dropIfEmpty(kind, lane);
      this.running.delete(run);
      this.pump();
    });
    this.running.set(run, kind);
  }

  private async attempt(handler: JobHandler<unknown>, jobs: readonly OutboxJob[]): Promise<void> {
    const startedAt = this.deps.clock.now();
    const outcomes = await handler
      .attempt(jobs)
      .catch((error: unknown) =>
        jobs.map((): AttemptOutcome => ({ kind: 'failed', error: describeError(error) })),
      );
    const finishedAt = this.deps.clock.now();
    await Promise.all(
      jobs.map((job, index) =>
        this.settle(
          handler,
          job,
          outcomes[index] ?? { kind: 'failed', error: 'the attempt gave no outcome' },
          startedAt,
          finishedAt,
        ),
      ),
    );
  }

  private async settle(
    handler: JobHandler<unknown>,
    job: OutboxJob,
    outcome: AttemptOutcome,
    startedAt: number,
    finishedAt: number,
  ): Promise<void> {
    if (outcome.kind === 'wait') {
      if (outcome.retryAt === undefined) {
        this.parked.set(job.id, job.kind);
        return;
      }
      await this.update({ ...job, nextAttemptAt: outcome.retryAt, lastError: outcome.reason });
      return;
    }
    const error = outcome.kind === 'failed' ? outcome.error : undefined;
    const attempted: OutboxJob = {
      ...job,
      attemptCount: job.attemptCount + 1,
      attempts: [
        ...job.attempts,
        {
          at: startedAt,
          ...(outcome.status !== undefined ? { status: outcome.status } : {}),
          ...(error !== undefined ? { error } : {}),
          durationMs: finishedAt - startedAt,
        },
      ].slice(-keptAttempts),
    };
    if (error === undefined) {
      const { lastError: _lastError, ...delivered } = attempted;
      await this.finish({ ...delivered, state: 'delivered', finishedAt });
      return;
    }
    const what = handler.describe(job);
    if (outcome.kind === 'failed' && !outcome.final && attempted.attemptCount < handler.maxAttempts()) {
      const delayMs = retryDelayMs(attempted.attemptCount);
      this.deps.logger.warn(`${what} failed, retrying in ${delayMs / 1000} s`, { error });
      await this.update({ ...attempted, lastError: error, nextAttemptAt: finishedAt + delayMs });
      return;
    }
    this.deps.logger.error(`${what} failed for good after ${attempted.attemptCount} attempts`, {
      id: job.id,
      error,
    });
    this.givenUp.push({ id: job.id, kind: job.kind, lane: job.lane, at: finishedAt });
    await this.finish({ ...attempted, state: 'failed', lastError: error, finishedAt });
  }

  private async update(job: OutboxJob): Promise<void> {
    this.replaceOrAdd(job);
    await this.deps.store.put(job);
  }

  private async finish(job: OutboxJob): Promise<void> {
    this.remove(job);
    this.parked.delete(job.id);
    await this.deps.store.put(job);
  }

  private laneOf(job: OutboxJob): Lane {
    let lanes = this.lanes.get(job.kind);
    if (!lanes) {
      lanes = new Map();
      this.lanes.set(job.kind, lanes);
    }
    let lane = lanes.get(job.lane);
    if (!lane) {
      lane = { key: job.lane, jobs: [], busy: new Set() };
      lanes.set(job.lane, lane);
    }
    return lane;
  }

  /** In `seq` order: a new job goes last, a job sent again among those of its time. */
  private replaceOrAdd(job: OutboxJob): void {
    const { jobs } = this.laneOf(job);
    const at = jobs.findIndex((kept) => kept.id === job.id);
    if (at >= 0) {
      jobs[at] = job;
      return;
    }
    let index = jobs.length;
    while (index > 0 && (jobs[index - 1]?.seq ?? 0) > job.seq) index--;
    jobs.splice(index, 0, job);
  }

  private remove(job: OutboxJob): void {
    const lane = this.lanes.get(job.kind)?.get(job.lane);
    if (!lane) return;
    const at = lane.jobs.findIndex((kept) => kept.id === job.id);
    if (at >= 0) lane.jobs.splice(at, 1);
    this.dropIfEmpty(job.kind, lane);
  }

  private dropIfEmpty(kind: JobKind, lane: Lane): void {
    const lanes = this.lanes.get(kind);
    if (lane.jobs.length === 0 && lane.busy.size === 0 && lanes?.get(lane.key) === lane)
      lanes.delete(lane.key);
  }

  private unpark(kind: JobKind): void {
    for (const [id, of] of this.parked) if (of === kind) this.parked.delete(id);
  }

  private scheduleWake(at: number): void {
    if (at === Number.POSITIVE_INFINITY || at >= this.wakeAt) return;
    this.wakeTimer?.cancel();
    this.wakeAt = at;
    this.wakeTimer = this.deps.clock.setTimer(() => {
      this.wakeAt = Number.POSITIVE_INFINITY;
      this.pump();
    }, at - this.deps.clock.now());
  }

  private schedulePrune(): void {
    this.pruneTimer = this.deps.clock.setTimer(() => {
      if (this.stopped) return;
      this.prune().catch((error: unknown) =>
        this.deps.logger.warn('could not prune the outbox history', { error: describeError(error) }),
      );
      this.schedulePrune();
    }, pruneIntervalMs);
  }

  private async prune(): Promise<void> {
    const before = this.deps.clock.now() - this.retentionMs;
    // Ids only: the history can be large, and no job is held while it is read.
    const old: string[] = [];
    for (const job of this.deps.store.values())
      if (job.state !== 'pending' && (job.finishedAt ?? job.createdAt) < before) old.push(job.id);
    await Promise.all(old.map((id) => this.deps.store.delete(id)));
  }
}
