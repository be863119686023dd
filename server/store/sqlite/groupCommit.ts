import type { Database } from 'better-sqlite3';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for a synchronous SQLite connection. The first write of a turn of the event loop
 * opens a transaction; every write made until the loop comes round again joins it; one COMMIT
 * (one WAL fsync under synchronous=FULL) then makes them all durable. Thousands of durable
 * writes a second cost a few hundred fsyncs, and the event loop is held only for the commit
 * itself, not once per write.
 *
 * A write runs at once on the connection, so reads on the same connection see it before it is
 * durable (the repositories' "visible at once" contract); its promise settles after the COMMIT.
 * If the COMMIT fails, everything in the batch is rolled back and every waiter rejects; owners
 * of in-memory state rebuild it from the database through `onRollback`.
 */
export class GroupCommit {
  private waiters: Waiter[] | undefined;
  private readonly rollbackListeners: (() => void)[] = [];
  private closed = false;

  constructor(private readonly db: Database) {}

  /**
   * Runs `change` inside the open batch and returns its result with a promise that settles once
   * the batch is durable. Throws at once (nothing applied) when `change` throws or the store is
   * closed. `change` must be one statement or a `db.transaction` (a savepoint here), so a throw
   * leaves nothing half done.
   */
  write<T>(change: () => T): { value: T; durable: Promise<void> } {
    if (this.closed) throw new GatewayError(ErrorCode.StoreClosed, 'storage is closed');
    const waiters = this.batch();
    const value = change();
    const durable = new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
    return { value, durable };
  }

  /** Called after a failed COMMIT was rolled back. */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /** Commits what is open now (close, backup, tests); later writes start a new batch. */
  flush(): void {
    const waiters = this.waiters;
    if (!waiters) return;
    this.waiters = undefined;
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      const failure = new GatewayError(ErrorCode.StoreIo, 'the database could not commit', { cause: error });
      for (const waiter of waiters) waiter.reject(failure);
      for (const listener of this.rollbackListeners) listener();
      return;
    }
    for (const waiter of waiters) waiter.resolve();
  }

  /** Commits what is open and refuses further writes. */
  close(): void {
    this.flush();
    this.closed = true;
  }

  get isClosed(): boolean {
    return this.closed;
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
