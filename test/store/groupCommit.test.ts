import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import {
  type Checkpointer,
  type CheckpointOutcome,
  openCheckpointer,
} from '../../server/store/sqlite/checkpointer.js';
import type { GatewayDatabase } from '../../server/store/sqlite/database.js';
import { GroupCommit, walFramesBeforeRestart } from '../../server/store/sqlite/groupCommit.js';
import { type Database, openSqlite } from '../../server/store/sqlite/sqlite.js';
import { WalSync } from '../../server/store/sqlite/walSync.js';
import { failNextCommit, openTestDatabase, temporaryDirectory } from './storeTestKit.js';

describe('GroupCommit', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: GatewayDatabase;
  const insert = (n: number) =>
    database.commits.write(() => database.db.prepare('INSERT INTO scratch (n) VALUES (?)').run(n));
  const rows = () =>
    (database.db.prepare('SELECT count(*) AS total FROM scratch').get() as { total: number }).total;

  beforeEach(async () => {
    dir = await temporaryDirectory();
    database = openTestDatabase(dir.path);
    database.db.exec('CREATE TABLE scratch (n INTEGER)');
  });

  afterEach(async () => {
    await database.close();
    await dir.remove();
  });

  it('makes the writes of one turn visible at once and commits them together once', async () => {
    const exec = vi.spyOn(database.db, 'exec');
    const writes = Array.from({ length: 50 }, (_, n) => insert(n).durable);
    expect(rows()).toBe(50);
    await Promise.all(writes);
    expect(exec.mock.calls.filter(([sql]) => sql === 'COMMIT')).toHaveLength(1);
  });

  it('rejects every write of a batch whose commit fails, and rolls all of them back', async () => {
    await insert(0).durable;
    failNextCommit(database);
    const doomed = [insert(1).durable, insert(2).durable];
    for (const write of doomed) {
      await expect(write).rejects.toSatisfy((error) => isGatewayError(error, ErrorCode.StoreIo));
    }
    expect(rows()).toBe(1);
    await insert(3).durable;
    expect(rows()).toBe(2);
  });

  it('refuses writes after close with StoreClosed, having made the open batch durable', async () => {
    const last = insert(1).durable;
    await database.close();
    await last;
    expect(() => insert(2)).toThrow(
      expect.toSatisfy((error) => isGatewayError(error, ErrorCode.StoreClosed)),
    );
    database = openTestDatabase(dir.path);
    expect(rows()).toBe(1);
  });
});

describe("GroupCommit's checkpoints", () => {
  let dir: { path: string; remove: () => Promise<void> };
  let db: Database;
  let wal: WalSync;
  let commits: GroupCommit;
  let checkpointer: Checkpointer;
  /** What the checkpointer's thread answered, in order, and how often it failed. */
  let outcomes: CheckpointOutcome[];
  let failures: number;
  const closers: (() => Promise<void>)[] = [];

  /** A gateway-like connection on a fresh file, its group commit using `thread`. */
  function open(thread: (path: string) => Checkpointer): void {
    const path = join(dir.path, 'checkpoints.db');
    db = openSqlite(path);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE scratch (n INTEGER, filler BLOB)');
    wal = new WalSync(`${path}-wal`);
    const real = thread(path);
    outcomes = [];
    failures = 0;
    checkpointer = {
      checkpoint: () =>
        real.checkpoint().then(
          (outcome) => {
            outcomes.push(outcome);
            return outcome;
          },
          (error: unknown) => {
            failures++;
            throw error;
          },
        ),
      close: () => real.close(),
    };
    commits = new GroupCommit(db, wal, checkpointer);
    closers.push(async () => {
      await commits.close();
      await checkpointer.close();
      db.close();
      wal.close();
    });
  }

  /** `rows` rows of one 4 KB blob each in one batch: at least one WAL frame per row. */
  const insertPages = (from: number, rows: number) =>
    commits.write(
      db.transaction(() => {
        const statement = db.prepare('INSERT INTO scratch (n, filler) VALUES (?, zeroblob(4096))');
        for (let n = from; n < from + rows; n++) statement.run(n);
      }),
    ).durable;
  const framesInWal = () => (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]?.log ?? -1;
  const checkpointsHere = (pragma: { mock: { calls: unknown[][] } }) =>
    pragma.mock.calls.filter(([sql]) => sql === 'wal_checkpoint(PASSIVE)').length;

  beforeEach(async () => {
    dir = await temporaryDirectory();
  });

  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await dir.remove();
  });

  it("runs them on the checkpointer's thread once enough has changed, not on the gateway's connection", async () => {
    open((path) => openCheckpointer(path, silentLogger));
    const pragma = vi.spyOn(db, 'pragma');
    await insertPages(0, 2_500);
    expect(outcomes).toHaveLength(0);
    await insertPages(2_500, 2_500);
    // The thread starts at the first checkpoint: seconds on a loaded machine.
    await vi.waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 15_000 });
    // Every frame the WAL held then went into the database file.
    expect(outcomes[0]?.checkpointed).toBe(outcomes[0]?.log);
    expect(outcomes[0]?.log).toBeGreaterThanOrEqual(5_000);
    expect(checkpointsHere(pragma)).toBe(0);
  });

  it('starts the WAL over once it is long, ending a checkpoint itself between batches', async () => {
    open((path) => openCheckpointer(path, silentLogger));
    const pragma = vi.spyOn(db, 'pragma');
    // Past walFramesBeforeRestart in 500-row batches: the thread's checkpoint comes at 5,000 rows.
    for (let from = 0; from < 5_000; from += 500) await insertPages(from, 500);
    // The thread starts at the first checkpoint: seconds on a loaded machine.
    await vi.waitFor(() => expect(outcomes).toHaveLength(1), { timeout: 15_000 });
    expect(outcomes[0]?.log).toBeGreaterThanOrEqual(walFramesBeforeRestart);
    // The next batch's flush ends the checkpoint here; the one after it writes the WAL from its start.
    await insertPages(5_000, 1);
    expect(checkpointsHere(pragma)).toBe(1);
    await insertPages(5_001, 1);
    expect(framesInWal()).toBeLessThan(10);
  });

  it('checkpoints on its own connection, between batches, after the thread failed', async () => {
    // The thread opens a file that is not there, so it dies; its checkpoint fails.
    open(() => openCheckpointer(join(dir.path, 'absent.db'), silentLogger));
    const pragma = vi.spyOn(db, 'pragma');
    await insertPages(0, 2_500);
    await insertPages(2_500, 2_500);
    await vi.waitFor(() => expect(failures).toBe(1), { timeout: 5_000 });
    expect(checkpointsHere(pragma)).toBe(0);
    for (let from = 5_000; from < 10_000; from += 2_500) await insertPages(from, 2_500);
    // The thread is not asked again: the next checkpoint ran here, and emptied the WAL.
    expect(failures).toBe(1);
    expect(checkpointsHere(pragma)).toBe(1);
    expect((db.prepare('SELECT count(*) AS total FROM scratch').get() as { total: number }).total).toBe(
      10_000,
    );
  });
});
