import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger, type LogRecord, silentLogger } from '../../server/logging/logger.js';
import { type LogRepositoryOptions, SqliteLogRepository } from '../../server/store/logRepository.js';
import type { GatewayDatabase } from '../../server/store/sqlite/database.js';
import { failNextCommit, openTestDatabase, temporaryDirectory } from './storeTestKit.js';

function record(message: string, createdAt: number, overrides: Partial<LogRecord> = {}): LogRecord {
  return { priority: 'INFO', module: 'modem:abc', message, createdAt, ...overrides };
}

/** Lets the group commit of this turn run. */
const committed = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SqliteLogRepository', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: GatewayDatabase;
  let logs: SqliteLogRepository;

  async function reopen(options: Partial<LogRepositoryOptions> = {}): Promise<void> {
    await database.close();
    database = openTestDatabase(dir.path);
    logs = new SqliteLogRepository(database.db, database.commits, { logger: silentLogger, ...options });
  }

  beforeEach(async () => {
    dir = await temporaryDirectory();
    database = openTestDatabase(dir.path);
    logs = new SqliteLogRepository(database.db, database.commits, { logger: silentLogger });
  });

  afterEach(async () => {
    await database.close();
    await dir.remove();
  });

  it('assigns increasing ids synchronously and continues them after a restart', async () => {
    const first = logs.append(record('one', 1));
    const second = logs.append(record('two', 2));
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(logs.list({}).map((entry) => entry.message)).toEqual(['one', 'two']);
    await reopen();
    expect(logs.append(record('three', 3)).id).toBe(3);
  });

  it('commits the appends of one turn of the event loop together', async () => {
    const exec = vi.spyOn(database.db, 'exec');
    for (let n = 0; n < 200; n++) logs.append(record(`line ${n}`, n));
    await committed();
    expect(exec.mock.calls.filter(([sql]) => sql === 'COMMIT')).toHaveLength(1);
    expect(logs.count()).toBe(200);
  });

  it('lists the newest entries oldest first, filtered by time, priority and module prefix', () => {
    logs.append(record('a', 10));
    logs.append(record('b', 20, { priority: 'ERROR' }));
    logs.append(record('c', 30, { module: 'http' }));
    logs.append(record('d', 40, { module: 'modem' }));
    logs.append(record('e', 50, { module: 'modemx' }));
    const messages = (query: Parameters<SqliteLogRepository['list']>[0]) =>
      logs.list(query).map((e) => e.message);
    expect(messages({ limit: 2 })).toEqual(['d', 'e']);
    expect(messages({ from: 20, to: 40 })).toEqual(['b', 'c']);
    expect(messages({ priority: 'ERROR' })).toEqual(['b']);
    expect(messages({ module: 'modem' })).toEqual(['a', 'b', 'd']);
  });

  it('stores contexts with errors and bigints as plain JSON', () => {
    const entry = logs.append(record('x', 1, { context: { error: new Error('boom'), big: 10n } }));
    expect(entry.context).toEqual({ error: { name: 'Error', message: 'boom' }, big: '10' });
    expect(logs.list({})[0]?.context).toEqual(entry.context);
  });

  it('keeps an entry whose context cannot be serialised, marking it', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const entry = logs.append(record('x', 1, { context: circular }));
    expect(entry.context).toEqual({ unserialisable: true });
    expect(logs.list({}).map((e) => e.message)).toEqual(['x']);
  });

  it('keeps at most maxEntries and a tenth more, dropping the oldest', async () => {
    await reopen({ maxEntries: 100 });
    for (let n = 0; n < 109; n++) logs.append(record(`line ${n}`, n));
    expect(logs.count()).toBe(109);
    logs.append(record('line 109', 109));
    expect(logs.count()).toBe(100);
    expect(logs.list({ limit: 1 })[0]?.message).toBe('line 109');
    expect(logs.list({}).at(0)?.message).toBe('line 10');
  });

  it('prunes entries created before the cut-off', async () => {
    for (let n = 0; n < 10; n++) logs.append(record(`line ${n}`, n * 100));
    expect(await logs.pruneOlderThan(500)).toBe(5);
    expect(logs.list({}).map((e) => e.createdAt)).toEqual([500, 600, 700, 800, 900]);
  });

  it('still hands out entries after close, without throwing', async () => {
    await database.close();
    expect(() => logs.append(record('late', 1))).not.toThrow();
    database = openTestDatabase(dir.path);
  });

  it('never throws at the caller and reports a failed commit once, even through itself', async () => {
    const records: LogRecord[] = [];
    let repository: SqliteLogRepository | undefined;
    // As in the gateway, the logger the repository reports through writes back into it.
    const logger = createLogger({
      level: 'DEBUG',
      sinks: [(entry) => records.push(entry), (entry) => repository?.append(entry)],
    });
    logs = new SqliteLogRepository(database.db, database.commits, { logger });
    repository = logs;
    failNextCommit(database);
    for (let n = 0; n < 5; n++) expect(() => logger.info(`line ${n}`)).not.toThrow();
    await committed();
    await committed();
    expect(records.filter((entry) => entry.message === 'log entries cannot be stored')).toHaveLength(1);
    // The lines of the failed batch are gone; the report itself was stored, under a reused id.
    expect(logs.list({}).map((entry) => [entry.id, entry.message])).toEqual([
      [1, 'log entries cannot be stored'],
    ]);
  });
});
