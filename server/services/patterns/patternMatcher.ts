import type { Worker } from 'node:worker_threads';
import { describeError, ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { startThread } from '../../threads/startThread.js';
import {
  type PatternReply,
  type PatternRequest,
  type PatternThreadData,
  progressSlots,
  type ThreadResult,
  type UserPattern,
} from './patternProtocol.js';

export type { UserPattern } from './patternProtocol.js';

/**
 * What became of one pattern of a batch. 'timed-out': it was still running when the batch's
 * time ran out, having run alone for at least half of it (`blameShare`): the caller switches it
 * off. 'not-run': the time ran out before its turn, or under a pattern that was not to blame.
 */
export type PatternOutcome =
  | { kind: 'matched'; groups: (string | undefined)[] }
  | { kind: 'unmatched' }
  | { kind: 'timed-out' }
  | { kind: 'not-run' }
  | { kind: 'invalid'; message: string };

/** What `match` offers, so that a caller can be given a fake. */
export interface PatternMatching {
  /** Runs the patterns on `text` in order, all of them within `budgetMs` together. */
  match(patterns: readonly UserPattern[], text: string, budgetMs: number): Promise<PatternOutcome[]>;
}

/**
 * A pattern still running when the time runs out is blamed only if it ran for this share of the
 * budget or more: patterns that are each merely slow share the budget and are skipped, not
 * switched off.
 */
const blameShare = 0.5;

/**
 * How long the thread stays after its last batch: an idle gateway gives its isolate back, and
 * one that matches often pays the start once.
 */
export const defaultPatternIdleMs = 30_000;

export interface PatternMatcherOptions {
  /** Said in logs and errors: "the rule pattern thread failed". */
  name: string;
  logger: Logger;
  idleMs?: number;
  /** Batches that may wait for the thread; one more is refused (QueueFull). Default: no limit. */
  maxWaiting?: number;
}

interface Batch {
  patterns: readonly UserPattern[];
  text: string;
  budgetMs: number;
  resolve(outcomes: PatternOutcome[]): void;
  reject(error: unknown): void;
}

interface Running {
  id: number;
  batch: Batch;
  sentAt: number;
  results: (ThreadResult | undefined)[];
  received: number;
  deadline: NodeJS.Timeout;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  progress: Int32Array;
}

/**
 * Runs users' regular expressions on a worker thread, one batch at a time, each batch within a
 * time budget. V8 cannot stop a RegExp from inside: a backtracking pattern such as `(.|.)*X`
 * runs for hours on a short text, and on the event loop that stops HTTP, serial traffic and the
 * scheduler. On its own thread it stops nothing, and at the deadline the thread is terminated
 * (the one way to stop a running RegExp) and the next batch gets a fresh one.
 *
 * Not RE2 (the `re2` package): it is a V8-ABI addon fetched from GitHub or compiled at install,
 * while the desktop build packs only Node-API prebuilds and rebuilds nothing
 * (electron-builder.yml); and it refuses lookarounds and backreferences users' patterns have.
 *
 * Deadlines are real time, not the gateway's clock: they bound what a thread really runs, and
 * a manual clock in tests would never end one.
 */
export class PatternMatcher implements PatternMatching {
  private thread: Thread | undefined;
  private readonly queue: Batch[] = [];
  private running: Running | undefined;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: PatternMatcherOptions) {}

  match(patterns: readonly UserPattern[], text: string, budgetMs: number): Promise<PatternOutcome[]> {
    if (this.closed) {
      return Promise.reject(
        new GatewayError(ErrorCode.PatternMatcherFailed, `the ${this.options.name} thread is stopped`),
      );
    }
    if (patterns.length === 0) return Promise.resolve([]);
    if (this.queue.length >= (this.options.maxWaiting ?? Number.POSITIVE_INFINITY)) {
      return Promise.reject(
        new GatewayError(
          ErrorCode.QueueFull,
          `the ${this.options.name} thread is busy; try again in a moment`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ patterns, text, budgetMs, resolve, reject });
      this.pump();
    });
  }

  /** Ends the thread; batches not answered yet fail with PatternMatcherFailed. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.failAll(new GatewayError(ErrorCode.PatternMatcherFailed, `the ${this.options.name} thread stopped`));
    await this.endThread();
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    clearTimeout(this.idleTimer);
    const thread = this.thread ?? this.startThread();
    // The budget starts once the thread has loaded: its start is not the patterns' time.
    if (!thread.ready) return;
    const batch = this.queue.shift();
    if (!batch) return;
    const id = this.nextId++;
    const sentAt = Date.now();
    Atomics.store(thread.progress, progressSlots.running, -1);
    this.running = {
      id,
      batch,
      sentAt,
      results: [],
      received: 0,
      deadline: setTimeout(() => this.outOfTime(), batch.budgetMs),
    };
    const request: PatternRequest = { id, patterns: batch.patterns, text: batch.text, sentAt };
    thread.worker.postMessage(request);
  }

  private startThread(): Thread {
    const progress = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
    const workerData: PatternThreadData = { progress };
    const worker = startThread(import.meta.url, 'patternThread', { workerData });
    const thread: Thread = { worker, ready: false, progress: new Int32Array(progress) };
    this.thread = thread;
    worker.on('message', (reply: PatternReply) => {
      if (reply.kind === 'ready') {
        thread.ready = true;
        this.pump();
      } else this.take(reply);
    });
    worker.on('error', (error) => {
      this.options.logger.error(`the ${this.options.name} thread failed`, { error: describeError(error) });
    });
    worker.on('exit', () => {
      // A thread ended on purpose (deadline, idle, close) was already let go.
      if (this.thread !== thread) return;
      this.thread = undefined;
      this.failAll(
        new GatewayError(ErrorCode.PatternMatcherFailed, `the ${this.options.name} thread stopped`),
      );
    });
    return thread;
  }

  private take(reply: Extract<PatternReply, { kind: 'result' }>): void {
    const running = this.running;
    if (!running || running.id !== reply.id) return;
    running.results[reply.index] = reply.result;
    running.received++;
    if (running.received < running.batch.patterns.length) return;
    clearTimeout(running.deadline);
    this.running = undefined;
    running.batch.resolve(running.results.map((result) => outcomeOf(result)));
    this.afterBatch();
  }

  private outOfTime(): void {
    const running = this.running;
    const thread = this.thread;
    if (!running || !thread) return;
    this.running = undefined;
    const blamed = Atomics.load(thread.progress, progressSlots.running);
    const ranMs = Date.now() - running.sentAt - Atomics.load(thread.progress, progressSlots.startedAfterMs);
    const guilty = ranMs >= running.batch.budgetMs * blameShare ? blamed : -1;
    void this.endThread();
    running.batch.resolve(
      running.batch.patterns.map((_pattern, index) => {
        const result = running.results[index];
        if (result) return outcomeOf(result);
        return index === guilty ? { kind: 'timed-out' } : { kind: 'not-run' };
      }),
    );
    this.afterBatch();
  }

  private afterBatch(): void {
    if (this.queue.length > 0) {
      this.pump();
      return;
    }
    this.idleTimer = setTimeout(() => void this.endThread(), this.options.idleMs ?? defaultPatternIdleMs);
    this.idleTimer.unref();
  }

  private async endThread(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.worker.terminate();
  }

  private failAll(error: GatewayError): void {
    const running = this.running;
    this.running = undefined;
    if (running) {
      clearTimeout(running.deadline);
      running.batch.reject(error);
    }
    for (const batch of this.queue.splice(0)) batch.reject(error);
  }
}

function outcomeOf(result: ThreadResult | undefined): PatternOutcome {
  if (!result) return { kind: 'not-run' };
  if ('invalid' in result) return { kind: 'invalid', message: result.invalid };
  return result.groups ? { kind: 'matched', groups: result.groups } : { kind: 'unmatched' };
}
