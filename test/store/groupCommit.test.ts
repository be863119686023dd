import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import type { GatewayDatabase } from '../../server/store/sqlite/database.js';
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

  it('checkpoints the write-ahead log as it goes, so it does not grow with the history', async () => {
    for (let n = 0; n < 1_000; n++) await insert(n).durable;
    // `log` is the number of frames in the WAL: one or more per commit without our checkpoints.
    const [result] = database.db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    expect(result?.log).toBeLessThan(1_000);
    expect(rows()).toBe(1_000);
  });

  it('checkpoints after a few large batches too, not only after many commits', async () => {
    const pragma = vi.spyOn(database.db, 'pragma');
    const checkpoints = () => pragma.mock.calls.filter(([sql]) => sql === 'wal_checkpoint(PASSIVE)').length;
    const insertMany = database.db.transaction((from: number) => {
      const statement = database.db.prepare('INSERT INTO scratch (n) VALUES (?)');
      for (let n = from; n < from + 2_500; n++) statement.run(n);
    });
    await database.commits.write(() => insertMany(0)).durable;
    expect(checkpoints()).toBe(0);
    await database.commits.write(() => insertMany(2_500)).durable;
    expect(checkpoints()).toBe(1);
    expect(rows()).toBe(5_000);
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
