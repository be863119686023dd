import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingRecord } from '../../server/contract/domain/incoming.js';
import type { MessageRecord, MessageState } from '../../server/contract/domain/message.js';
import { incomingRow, SqliteInboxRepository } from '../../server/store/inboxRepository.js';
import { messageRow, SqliteMessageRepository } from '../../server/store/messageRepository.js';
import { HistoryFilter } from '../../server/store/sqlite/historyFilter.js';
import { type PageItems, pagedRecords, pageRead } from '../../server/store/sqlite/pagedRecords.js';
import { normaliseNeedle } from '../../server/store/sqlite/queryFilter.js';
import { registerStoredViewFunctions, schemaSteps } from '../../server/store/sqlite/schema.js';
import { registerSearchFunctions, type SearchedTable } from '../../server/store/sqlite/searchIndex.js';
import { type Database, openSqlite } from '../../server/store/sqlite/sqlite.js';
import { StatementCache } from '../../server/store/sqlite/statementCache.js';
import { type Random, seededRandom } from '../faults/support/seededRandom.js';
import {
  listedPage,
  listForm,
  message,
  openTestDatabase,
  schemaTwentyThreeMessageRow,
  type TestDatabase,
  temporaryDirectory,
} from './storeTestKit.js';

/**
 * The search indexes are keyed by rowid, and the rows stored out of time order are listed beside
 * them (server/store/sqlite/searchIndex.ts). Over a history whose clock was set back, with rows
 * moved in from older files, one stamped in the future, ties in a millisecond and rows deleted,
 * every search page must be the page a plain `LIKE` scan sorted by time gives, in a database
 * made at this version and in one brought to it from version 20 (the time-and-rowid keys).
 */
const start = Date.UTC(2026, 3, 1);
const words = ['order', 'ready', 'code', 'parcel', 'müller', 'invoice', 'thanks', 'late'];

/** One history, the same for both databases: the rows in the order they are stored. */
interface History {
  messages: MessageRecord[];
  inbox: IncomingRecord[];
  deletedMessages: string[];
  deletedInbox: string[];
  editedMessages: MessageRecord[];
}

/** The time the gateway stamps the n-th row with: mostly rising, sometimes not (see below). */
function stampOf(random: Random, n: number): number {
  const clock = start + n * 60_000;
  // Rows 900 to 1,099: the PC's clock set back a day, then put right.
  if (n >= 900 && n < 1_100) return clock - 86_400_000;
  // A row moved in from older files, now and then.
  if (random.next() < 0.02) return start - random.int(1, 5_000) * 60_000;
  // Once, a row stamped a year ahead.
  if (n === 1_500) return clock + 365 * 86_400_000;
  // Ties within a millisecond, as a burst of requests gives.
  return random.next() < 0.2 ? start + (n - (n % 3)) * 60_000 : clock;
}

function textOf(random: Random, n: number): string {
  return `${random.pick(words)} ${random.pick(words)} ${n % 7 === 0 ? `ref 4477${n}` : ''}`.trim();
}

function history(): History {
  const random = seededRandom(2101);
  const states: MessageState[] = ['Sent', 'Delivered', 'Failed', 'Pending'];
  const messages: MessageRecord[] = [];
  const inbox: IncomingRecord[] = [];
  for (let n = 0; n < 2_400; n++) {
    const state = random.pick(states);
    const createdAt = stampOf(random, n);
    messages.push(
      message({
        id: `m${n}`,
        createdAt,
        // A row's sequence mostly follows its place, not always (a message moved in from files).
        sequence: random.next() < 0.03 ? 2 * n - 3 : 2 * n,
        state,
        states: { [state]: createdAt },
        deviceId: random.pick(['modem-a', 'modem-b']),
        content: { kind: 'text', text: textOf(random, n) },
        recipients: [{ phoneNumber: `+1555${String(random.int(0, 999)).padStart(7, '0')}`, state }],
      }),
    );
    if (n % 2 === 0) {
      inbox.push({
        id: `i${n}`,
        type: 'SMS',
        deviceId: random.pick(['modem-a', 'modem-b']),
        simNumber: 1,
        sender: `+4477${String(random.int(0, 999)).padStart(6, '0')}`,
        content: textOf(random, n),
        receivedAt: stampOf(random, n),
      });
    }
  }
  const deletedMessages = messages.filter(() => random.next() < 0.05).map((record) => record.id);
  const deletedInbox = inbox.filter(() => random.next() < 0.05).map((record) => record.id);
  const editedMessages = messages
    .filter((record) => record.state === 'Pending' && !deletedMessages.includes(record.id))
    .slice(0, 40)
    .map((record) => ({
      ...record,
      content: { kind: 'text' as const, text: `edited ${random.pick(words)}` },
    }));
  return { messages, inbox, deletedMessages, deletedInbox, editedMessages };
}

/**
 * Stores `data` with plain SQL, the schema's triggers doing the rest, as the repositories' writes
 * do: in the rows of this build, or of schema 17 to 23 (`stored view`: the view beside `body`).
 */
function store(db: Database, data: History, layout: 'current' | 'stored view'): void {
  const viewColumns = layout === 'current' ? [] : ['view', 'view_content'];
  const columns = [
    ...['id', 'created_at', 'seq', 'state', 'state_at', 'device_id', 'failed_recipients', 'search', 'body'],
    ...viewColumns,
  ];
  const insertMessage = db.prepare(
    `INSERT INTO messages (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`,
  );
  const rowOf = layout === 'current' ? messageRow : schemaTwentyThreeMessageRow;
  const insertIncoming = db.prepare(
    `INSERT INTO inbox (id, received_at, type, device_id, search, body)
     VALUES (@id, @received_at, @type, @device_id, @search, @body)`,
  );
  const edited = ['search', 'body', ...viewColumns];
  const editMessage = db.prepare(
    `UPDATE messages SET ${edited.map((column) => `${column} = @${column}`).join(', ')} WHERE id = @id`,
  );
  db.transaction(() => {
    for (const record of data.messages) insertMessage.run(rowOf(record));
    for (const record of data.inbox) insertIncoming.run(incomingRow(record));
    for (const id of data.deletedMessages) db.prepare('DELETE FROM messages WHERE id = ?').run(id);
    for (const id of data.deletedInbox) db.prepare('DELETE FROM inbox WHERE id = ?').run(id);
    for (const record of data.editedMessages) editMessage.run(rowOf(record));
  })();
}

/** A database at schema version 20, as the build before step 21 made it. */
function openVersion20(path: string): Database {
  const db = openSqlite(path);
  registerSearchFunctions(db);
  registerStoredViewFunctions(db);
  db.transaction(() => {
    for (const step of schemaSteps.slice(0, 20)) db.exec(step);
    db.pragma('user_version = 20');
  })();
  return db;
}

interface Query {
  search: string;
  limit: number;
  offset: number;
  from?: number;
  to?: number;
  oldestFirst?: boolean;
  state?: 'Pending';
}

const needles = ['order', 'müller', 'code ready', '4477', '+1555000', '15', 'ed', 'edited'];
const day = 86_400_000;
const windows: Omit<Query, 'search'>[] = [
  { limit: 20, offset: 0 },
  { limit: 20, offset: 0, oldestFirst: true },
  { limit: 50, offset: 180 },
  { limit: 7, offset: 33, oldestFirst: true },
  { limit: 2 ** 31, offset: 3 },
  { limit: 25, offset: 0, from: start + 800 * 60_000, to: start + 1_200 * 60_000 },
  { limit: 25, offset: 10, from: start - day, to: start + 100 * 60_000, oldestFirst: true },
  { limit: 40, offset: 0, from: start + 2_000 * 60_000 },
  { limit: 40, offset: 5, to: start + 10 * 60_000 },
  { limit: 10, offset: 0, from: start + 500 * day },
  { limit: 10, offset: 2, state: 'Pending' },
];
const queries: Query[] = needles.flatMap((search) => windows.map((window) => ({ search, ...window })));

/** The page a plain scan gives: `LIKE` over the searched text, every filter in SQL, sorted by time. */
function scannedPage(
  db: Database,
  table: 'messages' | 'inbox',
  query: Query,
): { total: number; ids: string[] } {
  const [time, tieBreak] = table === 'messages' ? ['created_at', 'seq'] : ['received_at', 'rowid'];
  const clauses = [`search LIKE '%' || @needle || '%'`];
  if (query.from !== undefined) clauses.push(`${time} >= @from`);
  if (query.to !== undefined) clauses.push(`${time} < @to`);
  if (query.state !== undefined) clauses.push('state = @state');
  const params = {
    needle: normaliseNeedle(query.search) ?? '',
    from: query.from,
    to: query.to,
    state: query.state,
  };
  const where = `WHERE ${clauses.join(' AND ')}`;
  const direction = query.oldestFirst ? 'ASC' : 'DESC';
  const ids = db
    .prepare(
      `SELECT id FROM ${table} ${where} ORDER BY ${time} ${direction}, ${tieBreak} ${direction}
       LIMIT @limit OFFSET @offset`,
    )
    .all({ ...params, limit: query.limit >= 2 ** 31 ? -1 : query.limit, offset: query.offset }) as {
    id: string;
  }[];
  const { total } = db.prepare(`SELECT count(*) AS total FROM ${table} ${where}`).get(params) as {
    total: number;
  };
  return { total, ids: ids.map((row) => row.id) };
}

/** What the repositories answer for `query`, messages and received ones. */
async function searchedPages(database: TestDatabase, query: Query) {
  const messages = new SqliteMessageRepository(database.db, database.commits, database.pages);
  const inbox = new SqliteInboxRepository(database.db, database.commits, database.pages);
  const messagePage = await listedPage(messages, query);
  // The inbox is listed newest first only, and has no states.
  const inboxPage =
    query.oldestFirst || query.state
      ? undefined
      : await inbox.list({
          search: query.search,
          limit: query.limit,
          offset: query.offset,
          from: query.from,
          to: query.to,
        });
  return {
    messages: { total: messagePage.total, ids: messagePage.items.map((item) => item.id) },
    inbox: inboxPage && { total: inboxPage.total, ids: inboxPage.items.map((item) => item.id) },
  };
}

describe('searches over rows stored out of time order', () => {
  const data = history();
  let dir: { path: string; remove: () => Promise<void> };
  let fresh: TestDatabase;
  let migrated: TestDatabase;

  beforeAll(async () => {
    dir = await temporaryDirectory();
    await mkdir(join(dir.path, 'fresh'));
    fresh = openTestDatabase(join(dir.path, 'fresh'));
    store(fresh.db, data, 'current');
    const older = openVersion20(join(dir.path, 'gateway.db'));
    store(older, data, 'stored view');
    older.close();
    migrated = openTestDatabase(dir.path);
  }, 120_000);

  afterAll(async () => {
    await fresh?.close();
    await migrated?.close();
    await dir.remove();
  });

  /** The rowids listed as stored out of time order in `table` of `database`. */
  const listed = (database: TestDatabase, table: 'messages' | 'inbox') =>
    (
      database.db.prepare(`SELECT stored_rowid FROM ${table}_unordered`).all() as { stored_rowid: number }[]
    ).map((row) => row.stored_rowid);
  const rowidOf = (database: TestDatabase, id: string) =>
    (database.db.prepare('SELECT rowid FROM messages WHERE id = ?').get(id) as { rowid: number }).rowid;

  it('lists a row stamped ahead, not the 900 rows stored after it', () => {
    for (const database of [fresh, migrated]) {
      expect(listed(database, 'messages')).toContain(rowidOf(database, 'm1500'));
      expect(listed(database, 'messages')).not.toContain(rowidOf(database, 'm2000'));
    }
  });

  it('lists the day the clock was set back, and as a migrated database no more than a fresh one', () => {
    for (const database of [fresh, migrated]) {
      for (const table of ['messages', 'inbox'] as const) {
        expect(listed(database, table).length).toBeGreaterThan(table === 'messages' ? 200 : 100);
      }
      expect(listed(database, 'messages')).toContain(rowidOf(database, 'm1000'));
    }
    for (const table of ['messages', 'inbox'] as const) {
      expect(listed(migrated, table).length).toBeLessThanOrEqual(listed(fresh, table).length);
    }
  });

  it.each(queries.map((query) => [JSON.stringify(query), query] as const))(
    'gives the pages of a plain scan for %s, fresh and migrated alike',
    async (_name, query) => {
      const expected = {
        messages: scannedPage(fresh.db, 'messages', query),
        inbox: query.oldestFirst || query.state ? undefined : scannedPage(fresh.db, 'inbox', query),
      };
      expect(await searchedPages(fresh, query)).toEqual(expected);
      expect(await searchedPages(migrated, query)).toEqual(expected);
    },
  );

  it('has queries that find something, on both tables, and deep pages that do too', () => {
    const found = queries.filter((query) => scannedPage(fresh.db, 'messages', query).ids.length > 0);
    expect(found.length).toBeGreaterThan(queries.length * 0.6);
    expect(scannedPage(fresh.db, 'inbox', { search: 'order', limit: 20, offset: 0 }).ids).toHaveLength(20);
    expect(scannedPage(fresh.db, 'messages', { search: 'order', limit: 50, offset: 180 }).ids).toHaveLength(
      50,
    );
  });

  it('reads no table of rows whole for a search, with a period and listed rows to merge', () => {
    const prepared: string[] = [];
    const spied = Object.create(fresh.db) as Database;
    spied.prepare = ((sql: string) => {
      prepared.push(sql);
      return fresh.db.prepare(sql);
    }) as Database['prepare'];
    const queries = new StatementCache(spied);
    for (const table of ['messages', 'inbox'] as SearchedTable[]) {
      for (const search of ['order', '4477']) {
        const filter = new HistoryFilter(table).period(start - day, start + 2_000 * 60_000).search(search);
        if (table === 'messages') filter.when('state', 'Sent', 'state = @state');
        const items: PageItems =
          table === 'messages' ? { kind: 'messageViews', ...listForm } : { kind: 'records' };
        const page = pagedRecords(
          queries,
          pageRead(filter, { orderBy: '', newestFirst: true, keptTotal: 0, limit: 20, offset: 30, items }),
        );
        expect(page.total).toBeGreaterThan(50);
      }
    }
    expect(prepared.some((sql) => sql.includes('_unordered AS listed'))).toBe(true);
    for (const sql of prepared) {
      const details = (fresh.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({}) as { detail: string }[]).map(
        (step) => step.detail,
      );
      expect(
        details.filter((detail) => /^SCAN (messages|inbox|stored)( |$)/.test(detail)),
        sql,
      ).toEqual([]);
    }
  });
});
