import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type LogRecord, silentLogger } from '../../server/logging/logger.js';
import { JournalLogRepository } from '../../server/store/logRepository.js';
import { countingFileSystem, temporaryDirectory } from './storeTestKit.js';

function record(message: string, createdAt: number, overrides: Partial<LogRecord> = {}): LogRecord {
  return { priority: 'INFO', module: 'modem:abc', message, createdAt, ...overrides };
}

describe('JournalLogRepository', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let logs: JournalLogRepository;
  const path = () => join(dir.path, 'logs.journal');

  beforeEach(async () => {
    dir = await temporaryDirectory();
    logs = await JournalLogRepository.open({ path: path(), logger: silentLogger });
  });

  afterEach(async () => {
    await logs.close();
    await dir.remove();
  });

  it('assigns increasing ids synchronously and continues them after a restart', async () => {
    const first = logs.append(record('one', 1));
    const second = logs.append(record('two', 2));
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(logs.list({}).map((entry) => entry.message)).toEqual(['one', 'two']);
    await logs.close();
    logs = await JournalLogRepository.open({ path: path(), logger: silentLogger });
    expect(logs.append(record('three', 3)).id).toBe(3);
  });

  it('batches the appends of one tick into a single fdatasync', async () => {
    await logs.close();
    const { fs, counters } = countingFileSystem();
    logs = await JournalLogRepository.open({ path: path(), logger: silentLogger, fs });
    for (let n = 0; n < 200; n++) logs.append(record(`line ${n}`, n));
    await logs.close();
    expect(counters.datasyncs).toBe(1);
  });

  it('lists the newest entries oldest first, filtered by time, priority and module prefix', () => {
    logs.append(record('a', 10));
    logs.append(record('b', 20, { priority: 'ERROR' }));
    logs.append(record('c', 30, { module: 'http' }));
    logs.append(record('d', 40, { module: 'modem' }));
    logs.append(record('e', 50, { module: 'modemx' }));
    const messages = (query: Parameters<JournalLogRepository['list']>[0]) =>
      logs.list(query).map((e) => e.message);
    expect(messages({ limit: 2 })).toEqual(['d', 'e']);
    expect(messages({ from: 20, to: 40 })).toEqual(['b', 'c']);
    expect(messages({ priority: 'ERROR' })).toEqual(['b']);
    expect(messages({ module: 'modem' })).toEqual(['a', 'b', 'd']);
  });

  it('stores contexts with errors and bigints as plain JSON', () => {
    const entry = logs.append(record('x', 1, { context: { error: new Error('boom'), big: 10n } }));
    expect(entry.context).toEqual({ error: { name: 'Error', message: 'boom' }, big: '10' });
  });

  it('keeps an entry whose context cannot be serialised, marking it', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const entry = logs.append(record('x', 1, { context: circular }));
    expect(entry.context).toEqual({ unserialisable: true });
    expect(logs.list({}).map((e) => e.message)).toEqual(['x']);
  });

  it('drops the oldest tenth once more than maxEntries are stored', async () => {
    await logs.close();
    logs = await JournalLogRepository.open({ path: path(), logger: silentLogger, maxEntries: 100 });
    for (let n = 0; n < 101; n++) logs.append(record(`line ${n}`, n));
    expect(logs.count()).toBe(90);
    expect(logs.list({ limit: 1 })[0]?.message).toBe('line 100');
    expect(logs.list({}).at(0)?.message).toBe('line 11');
  });

  it('prunes entries created before the cut-off', async () => {
    for (let n = 0; n < 10; n++) logs.append(record(`line ${n}`, n * 100));
    expect(await logs.pruneOlderThan(500)).toBe(5);
    expect(logs.list({}).map((e) => e.createdAt)).toEqual([500, 600, 700, 800, 900]);
  });

  it('still hands out entries after close, without throwing', async () => {
    await logs.close();
    expect(() => logs.append(record('late', 1))).not.toThrow();
  });

  it('never throws at the caller and reports a failing disk once, even through itself', async () => {
    await logs.close();
    const { fs } = countingFileSystem(() => new Error('EIO'));
    const records: LogRecord[] = [];
    let repository: JournalLogRepository | undefined;
    // As in the gateway, the logger the repository reports through writes back into it.
    const logger = createLogger({
      level: 'DEBUG',
      sinks: [(entry) => records.push(entry), (entry) => repository?.append(entry)],
    });
    logs = await JournalLogRepository.open({ path: path(), logger, fs });
    repository = logs;
    for (let n = 0; n < 5; n++) expect(() => logger.info(`line ${n}`)).not.toThrow();
    // close() waits for the failing flushes, and for the report they cause.
    await logs.close();
    expect(records.filter((entry) => entry.message === 'log entries cannot be stored')).toHaveLength(1);
  });
});
