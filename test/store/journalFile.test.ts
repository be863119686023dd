import { appendFile, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { nodeFileSystem, type StoreFileSystem } from '../../server/store/journal/fileSystem.js';
import { encodeLine, JournalFile } from '../../server/store/journal/journalFile.js';
import {
  countingFileSystem,
  gatedCompactionFileSystem,
  recordingLogger,
  temporaryDirectory,
} from './storeTestKit.js';

let dir: { path: string; remove: () => Promise<void> };
let path: string;

beforeEach(async () => {
  dir = await temporaryDirectory();
  path = join(dir.path, 'test.journal');
});

afterEach(async () => {
  await dir.remove();
});

async function readBack(options: { logger?: typeof silentLogger } = {}) {
  const entries: unknown[] = [];
  const journal = await JournalFile.open({ path, logger: options.logger ?? silentLogger }, (entry) =>
    entries.push(entry),
  );
  return { journal, entries };
}

async function writeEntries(count: number): Promise<void> {
  const { journal } = await readBack();
  await Promise.all(Array.from({ length: count }, (_, n) => journal.append(JSON.stringify({ n })).durable));
  await journal.close();
}

describe('JournalFile', () => {
  it('reads back every appended entry in order after reopening', async () => {
    await writeEntries(5);
    const { journal, entries } = await readBack();
    expect(entries).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    await journal.close();
  });

  it('writes one line per entry with a crc32 checksum before the JSON', async () => {
    await writeEntries(1);
    const checksum = crc32('{"n":0}').toString(16).padStart(8, '0');
    expect(await readFile(path, 'utf8')).toBe(`${checksum} {"n":0}\n`);
    expect(encodeLine('{"n":0}')).toBe(`${checksum} {"n":0}\n`);
  });

  it('creates the file readable and writable by its owner only (0600)', async () => {
    await writeEntries(1);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('group-commits appends made in the same tick: one write and one fdatasync for all', async () => {
    const { fs, counters } = countingFileSystem();
    const journal = await JournalFile.open({ path, logger: silentLogger, fs }, () => undefined);
    const appends = Array.from({ length: 100 }, (_, n) => journal.append(JSON.stringify({ n })).durable);
    await Promise.all(appends);
    expect(counters.writes).toBe(1);
    expect(counters.datasyncs).toBe(1);
    await journal.close();
  });

  it('joins appends made while a flush is running into the next single flush', async () => {
    const { fs, counters } = countingFileSystem();
    const journal = await JournalFile.open({ path, logger: silentLogger, fs }, () => undefined);
    const first = journal.append('{"n":0}').durable;
    // Let the first flush start, then add more while it is in flight.
    await new Promise((resolve) => setImmediate(resolve));
    const later = Array.from({ length: 50 }, (_, n) => journal.append(JSON.stringify({ n: n + 1 })).durable);
    await Promise.all([first, ...later]);
    expect(counters.datasyncs).toBe(2);
    await journal.close();
  });

  it('resolves an append only after its fdatasync', async () => {
    const { fs, counters } = countingFileSystem();
    const journal = await JournalFile.open({ path, logger: silentLogger, fs }, () => undefined);
    await journal.append('{"n":0}').durable;
    expect(counters.datasyncs).toBe(1);
    expect(await readFile(path, 'utf8')).toContain('{"n":0}');
    await journal.close();
  });

  it('truncates a line torn mid-write and keeps every complete record', async () => {
    await writeEntries(3);
    const size = (await stat(path)).size;
    await truncate(path, size - 4);
    const { logger, records } = recordingLogger();
    const { journal, entries } = await readBack({ logger });
    expect(entries).toEqual([{ n: 0 }, { n: 1 }]);
    expect(records.some((record) => record.priority === 'WARN' && record.message.includes('torn'))).toBe(
      true,
    );
    await journal.append('{"n":9}').durable;
    await journal.close();
    const reopened = await readBack();
    expect(reopened.entries).toEqual([{ n: 0 }, { n: 1 }, { n: 9 }]);
    await reopened.journal.close();
  });

  it('drops garbage after the last good line, including complete lines with a bad checksum', async () => {
    await writeEntries(2);
    await appendFile(path, 'deadbeef {"n":7}\n\0\0\0\0\0\0');
    const { journal, entries } = await readBack();
    expect(entries).toEqual([{ n: 0 }, { n: 1 }]);
    expect(journal.skippedLines).toBe(0);
    await journal.close();
    expect((await readFile(path, 'utf8')).split('\n')).toHaveLength(3);
  });

  it('skips and reports a corrupt line between intact ones instead of failing', async () => {
    await writeEntries(3);
    const lines = (await readFile(path, 'utf8')).split('\n');
    lines[1] = (lines[1] as string).replace('"n":1', '"n":5');
    await writeFile(path, lines.join('\n'));
    const { logger, records } = recordingLogger();
    const { journal, entries } = await readBack({ logger });
    expect(entries).toEqual([{ n: 0 }, { n: 2 }]);
    expect(journal.skippedLines).toBe(1);
    expect(records.some((record) => record.priority === 'ERROR')).toBe(true);
    await journal.close();
  });

  it('reads journals larger than its read window, with a line longer than the window itself', async () => {
    const { journal } = await readBack();
    const huge = 'x'.repeat(5 * 1024 * 1024);
    const written: unknown[] = [{ n: 'first' }, { n: 'huge', huge }];
    for (let n = 0; n < 12_000; n++) written.push({ n, filler: 'é'.repeat(300) });
    await Promise.all(written.map((entry) => journal.append(JSON.stringify(entry)).durable));
    await journal.append('{"n":"torn"}').durable;
    await journal.close();
    await truncate(path, (await stat(path)).size - 3);
    const { journal: reopened, entries } = await readBack();
    expect(entries).toEqual(written);
    await reopened.close();
  });

  it('skips a line whose checksum is right but whose text is not JSON, keeping its neighbours', async () => {
    await writeEntries(1);
    await appendFile(path, encodeLine('{"n":'));
    const { journal } = await readBack();
    await journal.append('{"n":2}').durable;
    await journal.close();
    const reopened = await readBack();
    expect(reopened.entries).toEqual([{ n: 0 }, { n: 2 }]);
    expect(reopened.journal.skippedLines).toBe(1);
    await reopened.journal.close();
  });

  it('replaces the file with a snapshot when rewritten, and keeps appending after it', async () => {
    await writeEntries(50);
    const before = (await stat(path)).size;
    const { journal } = await readBack();
    await journal.rewrite(() => [{ n: 'all' }]);
    expect(journal.bytes).toBeLessThan(before);
    await journal.append('{"n":"after"}').durable;
    await journal.close();
    const { journal: reopened, entries } = await readBack();
    expect(entries).toEqual([{ n: 'all' }, { n: 'after' }]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await reopened.close();
  });

  it('keeps appending durably while a compaction writes, and carries those lines into the new file', async () => {
    await writeEntries(3);
    const { fs, held, release } = gatedCompactionFileSystem();
    const journal = await JournalFile.open({ path, logger: silentLogger, fs }, () => undefined);
    let compacted = false;
    const compaction = journal
      .rewrite(() => [{ n: 'snapshot' }])
      .then(() => {
        compacted = true;
      });
    await held;
    await journal.append('{"n":"during"}').durable;
    expect(compacted).toBe(false);
    release();
    await compaction;
    await journal.append('{"n":"after"}').durable;
    await journal.close();
    const { journal: reopened, entries } = await readBack();
    expect(entries).toEqual([{ n: 'snapshot' }, { n: 'during' }, { n: 'after' }]);
    await reopened.close();
  });

  it('keeps the old file and the appends waiting on a compaction whose rename fails', async () => {
    await writeEntries(3);
    const fs: StoreFileSystem = { ...nodeFileSystem, rename: () => Promise.reject(new Error('EIO')) };
    const journal = await JournalFile.open({ path, logger: silentLogger, fs }, () => undefined);
    const waiting = journal.append('{"n":3}').durable;
    const compaction = journal.rewrite(() => [{ n: 'snapshot' }]);
    await expect(compaction).rejects.toSatisfy((error) => isGatewayError(error, ErrorCode.StoreIo));
    await waiting;
    await journal.close();
    const { journal: reopened, entries } = await readBack();
    expect(entries).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
    await reopened.close();
    expect(await readdir(dir.path)).toEqual(['test.journal']);
  });

  it('rejects the batch with StoreIo when the disk refuses a write, and writes later batches cleanly', async () => {
    let failNext = false;
    const { fs } = countingFileSystem(() =>
      failNext ? Object.assign(new Error('no space'), { code: 'ENOSPC' }) : undefined,
    );
    const journal = await JournalFile.open({ path, logger: silentLogger, fs }, () => undefined);
    await journal.append('{"n":0}').durable;
    failNext = true;
    const failed = journal.append('{"n":1}').durable;
    await expect(failed).rejects.toSatisfy((error) => isGatewayError(error, ErrorCode.StoreIo));
    failNext = false;
    await journal.append('{"n":2}').durable;
    await journal.close();
    const { journal: reopened, entries } = await readBack();
    expect(entries).toEqual([{ n: 0 }, { n: 2 }]);
    await reopened.close();
  });

  it('refuses appends after close with StoreClosed', async () => {
    const { journal } = await readBack();
    await journal.close();
    expect(() => journal.append('{}')).toThrow(expect.objectContaining({ code: ErrorCode.StoreClosed }));
  });
});
