import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Checkpointer } from './checkpointer.js';
import type { Database, Statement } from './sqlite.js';
import type { WalSync } from './walSync.js';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * A checkpoint is due after this many commits or this many changed rows, whichever comes first:
 * about SQLite's default of 1,000 WAL pages for the gateway's small batches, and a bound on the
 * WAL (and on the checkpoint's pause) when batches are large (migration, bench prefill).
 */
const commitsPerCheckpoint = 200;
const changesPerCheckpoint = 5_000;

/**
 * SQLite writes the WAL from its start again only after a checkpoint that copied every frame
 * ended before a write began; the checkpointer's, running beside the batches, rarely manages
 * that under load. So once the WAL holds this many frames (16 MB of 4 KB pages), this
 * connection finishes a checkpoint itself between two batches (only the frames the thread's last
 * one left, then the fsync), and the next write starts the WAL over.
 */
export const walFramesBeforeRestart = 4_096;

/**
 * Group commit for a synchronous SQLite connection, with the fsync off the event loop.
 *
 * The first write of a turn of the event loop opens a transaction; every write made until the
 * loop comes round again joins it; one COMMIT then ends the batch. The connection runs with
 * synchronous=OFF, so that COMMIT only hands the WAL frames to the OS; `WalSync` then
 * fdatasyncs the WAL on the thread pool, and only then do the batch's promises resolve. A
 * caller told "durable" has its data on disk exactly as with synchronous=FULL, but the event
 * loop serves HTTP and serial traffic while the disk flushes, and the next batch builds up
 * meanwhile (batches committed during one flush share the next).
 *
 * Checkpoints (copying WAL pages into the database file) are ours, not SQLite's automatic ones:
 * with synchronous=OFF SQLite would not fsync the database file before reusing the WAL, so a
 * power cut could lose pages that only the overwritten WAL held. When one is due (see
 * `commitsPerCheckpoint`), the checkpointer's thread runs it on a connection with
 * synchronous=FULL (checkpointer.ts), beside the batches; now and then this connection ends one
 * itself so that the WAL starts over (`walFramesBeforeRestart`). If that thread fails, this
 * connection does every checkpoint itself from then on, between batches, as the gateway did
 * before it had the thread: it switches to FULL, checkpoints and switches back.
 *
 * A write runs at once on the connection, so reads on the same connection see it before it is
 * durable (the repositories' "visible at once" contract). If the COMMIT fails, the batch is
 * rolled back, its waiters reject and owners of in-memory state rebuild it from the database
 * through `onRollback`. If the fsync fails, the OS may have dropped the pages: the store refuses
 * every later write (the gateway answers 5xx) rather than acknowledge on a disk it cannot trust.
 */
export class GroupCommit {
  private waiters: Waiter[] | undefined;
  /** Told when the open batch is committed or rolled back: other connections then see it. */
  private batchEnded: (() => void)[] = [];
  /** Run just before the open batch commits (`beforeCommit`). */
  private commitTasks: (() => void)[] = [];
  private readonly rollbackListeners: (() => void)[] = [];
  private closed = false;
  private broken: GatewayError | undefined;
  private commitsSinceCheckpoint = 0;
  private changesAtCheckpoint = 0;
  /** The checkpoint the checkpointer's thread is running. */
  private checkpointing: Promise<void> | undefined;
  /** The WAL is long enough to start over: this connection ends the next checkpoint itself. */
  private restartDue = false;
  /** Prepared once: it is asked after every flush, and preparing costs more than running it. */
  private readonly selectTotalChanges: Statement<[], { changes: number }>;

  constructor(
    private readonly db: Database,
    private readonly wal: WalSync,
    /** Without one (or once it failed), this connection checkpoints itself. */
    private checkpointer?: Pick<Checkpointer, 'checkpoint'>,
  ) {
    this.selectTotalChanges = db.prepare('SELECT total_changes() AS changes');
    db.pragma('wal_autocheckpoint = 0');
    db.pragma('synchronous = OFF');
  }

  /**
   * Runs `change` inside the open batch and returns its result with a promise that settles once
   * the batch is durable. Throws at once (nothing applied) when `change` throws or the store is
   * closed or broken. `change` must be one statement or a `db.transaction` (a savepoint here),
   * so a throw leaves nothing half done.
   */
  write<T>(change: () => T): { value: T; durable: Promise<void> } {
    if (this.closed) throw new GatewayError(ErrorCode.StoreClosed, 'storage is closed');
    if (this.broken) throw this.broken;
    const waiters = this.batch();
    const value = change();
    const durable = new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
    return { value, durable };
  }

  /**
   * Settles once every write made so far is committed (or rolled back), durable or not: what
   * another connection (the page reader's) reads from then on includes it, as this one's does.
   */
  committed(): Promise<void> {
    if (!this.waiters) return Promise.resolve();
    return new Promise((resolve) => this.batchEnded.push(resolve));
  }

  /**
   * Runs `task` just before the open batch commits, so that what it writes joins that batch: the
   * scheduler's next hand-over after a send's answer is recorded in the answer's commit, one
   * fdatasync for both. False when no batch is open. `task` must not throw.
   */
  beforeCommit(task: () => void): boolean {
    if (!this.waiters) return false;
    this.commitTasks.push(task);
    return true;
  }

  /** Called after a failed COMMIT was rolled back. */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /** Commits the open batch now; its promises settle once the WAL is flushed. */
  flush(): void {
    if (!this.waiters) return;
    const tasks = this.commitTasks;
    this.commitTasks = [];
    for (const task of tasks) task();
    const waiters = this.waiters;
    this.waiters = undefined;
    const ended = this.batchEnded;
    this.batchEnded = [];
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      const failure = new GatewayError(ErrorCode.StoreIo, 'the database could not commit', { cause: error });
      for (const waiter of waiters) waiter.reject(failure);
      for (const listener of this.rollbackListeners) listener();
      for (const tell of ended) tell();
      return;
    }
    for (const tell of ended) tell();
    this.commitsSinceCheckpoint++;
    this.wal.sync().then(
      () => {
        for (const waiter of waiters) waiter.resolve();
        this.checkpointIfDue();
      },
      (error: unknown) => {
        this.broken ??= new GatewayError(ErrorCode.StoreIo, 'the disk refused to flush the database', {
          cause: error,
        });
        for (const waiter of waiters) waiter.reject(this.broken);
      },
    );
  }

  /** Commits what is open, waits for the flushes and refuses further writes. */
  async close(): Promise<void> {
    this.flush();
    this.closed = true;
    await this.wal.settled();
    await this.checkpointing;
    // The last checkpoint (at close) must fsync the database file before SQLite deletes the WAL.
    this.db.pragma('synchronous = FULL');
  }

  private checkpointIfDue(): void {
    if (this.closed || this.checkpointing) return;
    // This connection's own checkpoints wait for a moment between batches; the thread's do not.
    const betweenBatches = !this.waiters;
    const changes = this.totalChanges();
    if (this.restartDue && betweenBatches) {
      this.restartDue = false;
      this.checkpointHere(changes);
      return;
    }
    const due =
      this.commitsSinceCheckpoint >= commitsPerCheckpoint ||
      changes - this.changesAtCheckpoint >= changesPerCheckpoint;
    if (!due) return;
    const checkpointer = this.checkpointer;
    if (!checkpointer) {
      if (betweenBatches) this.checkpointHere(changes);
      return;
    }
    this.commitsSinceCheckpoint = 0;
    this.changesAtCheckpoint = changes;
    this.checkpointing = checkpointer.checkpoint().then(
      (outcome) => {
        this.checkpointing = undefined;
        this.restartDue = outcome.log >= walFramesBeforeRestart;
      },
      () => {
        // Logged by the checkpointer. A thread that cannot start would fail every time: stop asking.
        this.checkpointer = undefined;
        this.checkpointing = undefined;
      },
    );
  }

  /** A checkpoint on this connection, FULL for its duration; only between batches. */
  private checkpointHere(changes: number): void {
    this.commitsSinceCheckpoint = 0;
    this.changesAtCheckpoint = changes;
    this.db.pragma('synchronous = FULL');
    try {
      // PASSIVE: copies what no reader (a backup) still needs; the rest goes at the next one.
      this.db.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      this.db.pragma('synchronous = OFF');
    }
  }

  /** Rows changed on this connection since it opened (SQLite's total_changes()). */
  private totalChanges(): number {
    return (this.selectTotalChanges.get() as { changes: number }).changes;
  }

  private batch(): Waiter[] {
    if (this.waiters) return this.waiters;
    this.db.exec('BEGIN IMMEDIATE');
    const waiters: Waiter[] = [];
    this.waiters = waiters;
    // setImmediate runs after the I/O callbacks of this turn: every request parsed in the same
    // turn lands in this batch.
    setImmediate(() => {
      if (this.waiters === waiters) this.flush();
    });
    return waiters;
  }
}
