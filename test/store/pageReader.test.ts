import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { SqliteMessageRepository } from '../../server/store/messageRepository.js';
import { HistoryFilter } from '../../server/store/sqlite/historyFilter.js';
import { type PageRead, pageRead } from '../../server/store/sqlite/pagedRecords.js';
import { PageReader } from '../../server/store/sqlite/pageReader.js';
import { message, openTestDatabase, type TestDatabase, temporaryDirectory } from './storeTestKit.js';

const viewsWithoutContent: PageRead['items'] = {
  kind: 'messageViews',
  withContent: false,
  unassignedDeviceId: undefined,
};

/** The whole `messages` table, newest first: what `GET /messages` without a filter reads. */
function everyMessage(keptTotal: number): PageRead {
  return pageRead(new HistoryFilter('messages'), {
    orderBy: 'created_at DESC, seq DESC',
    newestFirst: true,
    keptTotal,
    limit: 100,
    offset: 0,
    items: viewsWithoutContent,
  });
}

/** A time after `message()`'s default one, so a message made with it comes first on a page. */
const later = message({ id: 'default' }).createdAt + 1;

/** The ids of a page's messages, which come as one JSON array. */
const idsOf = (page: { json: string }) =>
  (JSON.parse(page.json) as { id: string }[]).map((record) => record.id);

describe('PageReader (pages read on a worker thread)', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  let repository: SqliteMessageRepository;
  const readers: PageReader[] = [];

  beforeEach(async () => {
    dir = await temporaryDirectory();
    database = openTestDatabase(dir.path);
    repository = new SqliteMessageRepository(database.db, database.commits, database.pages);
  });

  afterEach(async () => {
    for (const reader of readers.splice(0)) await reader.close();
    await database.close();
    await dir.remove();
  });

  it('sees a write made just before the read, before it is durable', async () => {
    await repository.insert(message({ id: 'first' }));
    // The worker is running: the read below would reach it long before the batch's COMMIT.
    expect(idsOf(await database.pages.read(everyMessage(1)))).toEqual(['first']);
    // Not awaited: the batch is still open when the read is asked for.
    const durable = repository.insert(message({ id: 'second', createdAt: later }));
    const page = await database.pages.read(everyMessage(2));
    expect(idsOf(page)).toEqual(['second', 'first']);
    await durable;
  });

  it('answers a page asked during a slow search first, from its other thread', async () => {
    const count = 40_000;
    await Promise.all(
      Array.from({ length: count }, (_, index) => repository.insert(message({ id: `m${index}` }))),
    );
    // Two reads at once start both threads.
    await Promise.all([database.pages.read(everyMessage(count)), database.pages.read(everyMessage(count))]);
    // Two letters are shorter than a trigram: every row is read and none matches.
    const slowSearch = pageRead(new HistoryFilter('messages').search('zq'), {
      orderBy: 'created_at DESC, seq DESC',
      newestFirst: true,
      keptTotal: count,
      limit: 50,
      offset: 0,
      items: viewsWithoutContent,
    });
    // One thread answers in the order asked, so there the newest page can never come first; on
    // two it comes first unless the machine holds its thread back for the whole search, which a
    // loaded CI machine can do once: the race runs up to three times.
    const orders: string[][] = [];
    for (let attempt = 0; attempt < 3 && orders.at(-1)?.[0] !== 'newest'; attempt++) {
      const answered: string[] = [];
      await Promise.all([
        database.pages.read(slowSearch).then(() => answered.push('search')),
        database.pages.read({ ...everyMessage(count), limit: 1 }).then(() => answered.push('newest')),
      ]);
      orders.push(answered);
    }
    expect(orders.at(-1)).toEqual(['newest', 'search']);
  });

  it('fails a read whose SQL the database refuses with StoreIo, and keeps answering the next ones', async () => {
    await repository.insert(message({ id: 'kept' }));
    const broken = { ...everyMessage(1), where: 'WHERE no_such_column = 1' };
    const failure = await database.pages.read(broken).catch((error: unknown) => error);
    expect(isGatewayError(failure) && failure.code).toBe(ErrorCode.StoreIo);
    expect(String((failure as Error).message)).toContain('no_such_column');
    expect(idsOf(await database.pages.read(everyMessage(1)))).toEqual(['kept']);
  });

  it('fails the reads of a worker that died (here: no database to open) instead of leaving them waiting', async () => {
    const reader = new PageReader(join(dir.path, 'absent.db'), database.commits, silentLogger);
    readers.push(reader);
    for (let attempt = 0; attempt < 2; attempt++) {
      const failure = await reader.read(everyMessage(0)).catch((error: unknown) => error);
      expect(isGatewayError(failure) && [failure.code, failure.message]).toEqual([
        ErrorCode.StoreIo,
        'the page reader stopped',
      ]);
    }
  });

  it('starts its worker again for a read after an idle stop', async () => {
    const reader = new PageReader(database.path, database.commits, silentLogger, 20);
    readers.push(reader);
    await repository.insert(message({ id: 'early' }));
    expect(idsOf(await reader.read(everyMessage(1)))).toEqual(['early']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await repository.insert(message({ id: 'late', createdAt: later }));
    expect(idsOf(await reader.read(everyMessage(2)))).toEqual(['late', 'early']);
  });

  it('answers the reads asked before close, and refuses those asked after with StoreClosed', async () => {
    const reader = new PageReader(database.path, database.commits, silentLogger);
    await repository.insert(message({ id: 'only' }));
    const asked = reader.read(everyMessage(1));
    await reader.close();
    expect(idsOf(await asked)).toEqual(['only']);
    const refused = await reader.read(everyMessage(1)).catch((error: unknown) => error);
    expect(isGatewayError(refused) && refused.code).toBe(ErrorCode.StoreClosed);
  });
});
