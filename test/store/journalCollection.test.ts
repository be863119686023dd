import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { type CompactionPolicy, JournalCollection } from '../../server/store/journal/journalCollection.js';
import { encodeLine } from '../../server/store/journal/journalFile.js';
import {
  countingFileSystem,
  gatedCompactionFileSystem,
  recordingLogger,
  temporaryDirectory,
} from './storeTestKit.js';

interface Item {
  id: string;
  value: number;
  note?: string;
}

let dir: { path: string; remove: () => Promise<void> };
let path: string;

beforeEach(async () => {
  dir = await temporaryDirectory();
  path = join(dir.path, 'items.journal');
});

afterEach(async () => {
  await dir.remove();
});

/** Never compacts on its own, so a test decides when. */
const manualCompaction: CompactionPolicy = { ratio: Number.POSITIVE_INFINITY, slackBytes: 0 };

function open(compaction: CompactionPolicy = manualCompaction, logger = silentLogger) {
  return JournalCollection.open<Item>({ path, logger, compaction });
}

describe('JournalCollection', () => {
  it('shows a put to reads at once, before it is durable', async () => {
    const items = await open();
    const durable = items.put({ id: 'a', value: 1 });
    expect(items.get('a')).toEqual({ id: 'a', value: 1 });
    expect(items.size).toBe(1);
    await durable;
    await items.close();
  });

  it('restores puts, replacements and deletes after reopening', async () => {
    const items = await open();
    await Promise.all([items.put({ id: 'a', value: 1 }), items.put({ id: 'b', value: 2 })]);
    await items.put({ id: 'a', value: 3 });
    await items.delete('b');
    await items.close();
    const reopened = await open();
    expect([...reopened.values()]).toEqual([{ id: 'a', value: 3 }]);
    await reopened.close();
  });

  it('stores a compact copy: undefined fields dropped, later changes to the caller object ignored', async () => {
    const items = await open();
    const item: Item = { id: 'a', value: 1, note: undefined };
    await items.put(item);
    item.value = 99;
    expect(items.get('a')).toEqual({ id: 'a', value: 1 });
    expect(Object.keys(items.get('a') ?? {})).toEqual(['id', 'value']);
    await items.close();
  });

  it('compacts to one line per live record and loads the same data afterwards', async () => {
    const items = await open();
    for (let round = 0; round < 20; round++) {
      await Promise.all(Array.from({ length: 50 }, (_, n) => items.put({ id: `item-${n}`, value: round })));
    }
    await Promise.all(Array.from({ length: 10 }, (_, n) => items.delete(`item-${n}`)));
    const before = (await stat(path)).size;
    await items.compact();
    const after = (await stat(path)).size;
    expect(after).toBeLessThan(before / 10);
    expect((await readFile(path, 'utf8')).trimEnd().split('\n')).toHaveLength(40);
    await items.close();
    const reopened = await open();
    expect(reopened.size).toBe(40);
    expect(reopened.get('item-10')).toEqual({ id: 'item-10', value: 19 });
    expect(reopened.get('item-0')).toBeUndefined();
    await reopened.close();
  });

  it('compacts on its own once the file holds more than ratio × live bytes + slack', async () => {
    const items = await open({ ratio: 2, slackBytes: 1000 });
    for (let round = 0; round < 50; round++) await items.put({ id: 'only', value: round });
    await items.close();
    // One live line of ~35 bytes: without compaction 50 lines would be ~1,750 bytes.
    expect((await stat(path)).size).toBeLessThan(1100);
    const reopened = await open();
    expect(reopened.get('only')).toEqual({ id: 'only', value: 49 });
    await reopened.close();
  });

  it('keeps puts made while a compaction runs', async () => {
    const items = await open();
    await Promise.all(Array.from({ length: 200 }, (_, n) => items.put({ id: `item-${n}`, value: n })));
    const compaction = items.compact();
    const during = Array.from({ length: 100 }, (_, n) => items.put({ id: `item-${n}`, value: -n }));
    const removal = items.delete('item-199');
    await Promise.all([compaction, ...during, removal]);
    await items.close();
    const reopened = await open();
    expect(reopened.size).toBe(199);
    expect(reopened.get('item-5')).toEqual({ id: 'item-5', value: -5 });
    expect(reopened.get('item-150')).toEqual({ id: 'item-150', value: 150 });
    expect(reopened.has('item-199')).toBe(false);
    await reopened.close();
  });

  it('keeps changes made after the compaction took its snapshot', async () => {
    const { fs, held, release } = gatedCompactionFileSystem();
    const items = await JournalCollection.open<Item>({
      path,
      logger: silentLogger,
      fs,
      compaction: manualCompaction,
    });
    await Promise.all(Array.from({ length: 20 }, (_, n) => items.put({ id: `item-${n}`, value: n })));
    const compaction = items.compact();
    // The snapshot is read before the first (held) write to the new file; these come after it.
    await held;
    await Promise.all([
      items.put({ id: 'item-1', value: 100 }),
      items.delete('item-2'),
      items.put({ id: 'new', value: 1 }),
    ]);
    release();
    await compaction;
    await items.close();
    const reopened = await open();
    expect(reopened.get('item-1')?.value).toBe(100);
    expect(reopened.has('item-2')).toBe(false);
    expect(reopened.get('new')?.value).toBe(1);
    expect(reopened.size).toBe(20);
    await reopened.close();
  });

  it('ends in the same state as a plain map after random puts and deletes across overlapping compactions', async () => {
    const items = await open();
    const model = new Map<string, Item>();
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const writes: Promise<void>[] = [];
    for (let step = 0; step < 3000; step++) {
      const id = `item-${Math.floor(random() * 300)}`;
      if (random() < 0.25) {
        model.delete(id);
        writes.push(items.delete(id));
      } else {
        const item = { id, value: step };
        model.set(id, item);
        writes.push(items.put(item));
      }
      if (step % 500 === 250) writes.push(items.compact());
      // Let flushes and compaction chunks interleave with the next operations.
      if (step % 5 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);
    expect(new Map([...items.values()].map((item) => [item.id, item]))).toEqual(model);
    await items.close();
    const reopened = await open();
    expect(new Map([...reopened.values()].map((item) => [item.id, item]))).toEqual(model);
    await reopened.close();
  });

  it('group-commits concurrent puts from different callers', async () => {
    const { fs, counters } = countingFileSystem();
    const items = await JournalCollection.open<Item>({
      path,
      logger: silentLogger,
      fs,
      compaction: manualCompaction,
    });
    await Promise.all(Array.from({ length: 500 }, (_, n) => items.put({ id: `item-${n}`, value: n })));
    expect(counters.datasyncs).toBe(1);
    await items.close();
  });

  it('rewrites the file at open when a line in the middle is corrupt, keeping the rest', async () => {
    const items = await open();
    for (const id of ['a', 'b', 'c']) await items.put({ id, value: 1 });
    await items.close();
    const lines = (await readFile(path, 'utf8')).split('\n');
    lines[1] = `00000000 ${(lines[1] as string).slice(9)}`;
    await writeFile(path, lines.join('\n'));
    const { logger, records } = recordingLogger();
    const reopened = await open(manualCompaction, logger);
    expect([...reopened.values()].map((item) => item.id)).toEqual(['a', 'c']);
    expect(records.filter((record) => record.priority === 'ERROR')).toHaveLength(1);
    await reopened.close();
    // Rewritten: the next open finds nothing to report.
    const { logger: quietLogger, records: later } = recordingLogger();
    const again = await open(manualCompaction, quietLogger);
    expect(later.filter((record) => record.priority !== 'DEBUG' && record.priority !== 'INFO')).toEqual([]);
    expect(again.size).toBe(2);
    await again.close();
  });

  it('reports entries that are neither put nor delete and skips them', async () => {
    await writeFile(path, '');
    const items = await open();
    await items.put({ id: 'a', value: 1 });
    await items.close();
    await writeFile(
      path,
      (await readFile(path, 'utf8')) + encodeLine('{"x":1}') + encodeLine('{"p":{"id":"b","value":2}}'),
    );
    const { logger, records } = recordingLogger();
    const reopened = await open(manualCompaction, logger);
    expect([...reopened.values()].map((item) => item.id)).toEqual(['a', 'b']);
    expect(records.some((record) => record.priority === 'ERROR')).toBe(true);
    await reopened.close();
  });

  it('refuses a put after close with StoreClosed and leaves memory unchanged', async () => {
    const items = await open();
    await items.close();
    expect(() => items.put({ id: 'a', value: 1 })).toThrow(
      expect.objectContaining({ code: ErrorCode.StoreClosed }),
    );
    expect(items.has('a')).toBe(false);
  });
});
