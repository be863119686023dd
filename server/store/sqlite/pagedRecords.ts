import { omitNulls } from '../../contract/domain/apiJson.js';
import { toMessageView } from '../../contract/domain/messageView.js';
import type { MessageListForm } from '../repositories.js';
import type { HistoryFilter, IndexedSearch } from './historyFilter.js';
import { type MessageRecordColumns, recordColumns, recordOfColumns } from './messageRecordColumns.js';
import { sqlLimit, whereOf } from './queryFilter.js';
import { type SearchedTable, searchedOrder, unlistedRowidAt } from './searchIndex.js';
import type { StatementCache } from './statementCache.js';

/** Rows matching `read`'s filter; `count(*)` reads every one, so an unfiltered page uses the kept total. */
function countWhere(queries: StatementCache, read: PageRead): number {
  const statement = queries.get(`SELECT count(*) AS total FROM ${read.table} ${read.where}`);
  return (statement.get(read.params) as { total: number }).total;
}

/** The row count the schema's triggers keep for `table` (`row_counts`): no scan, at any size. */
export function keptRowCount(queries: StatementCache, table: 'messages' | 'inbox'): number {
  const statement = queries.get('SELECT total FROM row_counts WHERE name = @table');
  return (statement.get({ table }) as { total: number }).total;
}

/**
 * One page read of `messages` or `inbox`, as plain data: it is built on the main thread
 * (`pageRead`) and run by the page reader's worker (pageReader.ts).
 */
export interface PageRead {
  table: SearchedTable;
  /** Every clause of the filter, for a page read from the table itself. */
  where: string;
  params: Record<string, string | number | bigint>;
  /** Set when the search is looked up in an index (`HistoryFilter.indexedSearch`). */
  search?: {
    index: IndexedSearch['index'];
    /** The clauses the index's matches still need their rows for (not the period). */
    rowClauses: readonly string[];
    /** The period (ms), whose values are also `params.from` and `params.to`. */
    bounds: { from?: number; to?: number };
  };
  /** The table's order for a page without an indexed search (its time, then a tie-break). */
  orderBy: string;
  newestFirst: boolean;
  /** The table's row count, the total of an unfiltered page (the UI's first view). */
  keptTotal: number;
  limit: number;
  offset: number;
  items: PageItems;
}

/**
 * What a page lists: the received messages' stored records (`body`), or the API's views of
 * messages, rendered on the reader's thread from their rows (messageRecordColumns.ts) as GET by
 * id renders one (`toMessageView`), with the gateway's device id for those no modem has taken.
 */
export type PageItems = { kind: 'records' } | ({ kind: 'messageViews' } & MessageListForm);

/**
 * A page's items and the total of its filter. The items are one JSON array: the thread it is
 * sent to copies one string (and parses it once, if it needs the records), where 50 strings
 * cost it 50 of each (and its garbage collector more).
 */
export interface JsonPage {
  total: number;
  json: string;
}

/**
 * The rows `itemColumns` selects, as arrays: a row object costs the binding a named property per
 * column, an array an element, and a page's rows are built 50 at a time on the reader's thread.
 */
type RecordRow = [body: string];
type MessageRow = [
  id: string,
  createdAt: number,
  seq: number,
  state: MessageRecordColumns['state'],
  deviceId: string | null,
  body: string,
];

/** The columns of `table` (aliased `alias`, if given) that `items` are made of, in a row's order. */
function itemColumns(items: PageItems, alias = ''): string {
  return items.kind === 'records' ? `${alias}body` : recordColumns(alias);
}

/** The page's rows, read by `sql` as `itemColumns` selects them. */
function pageRows(queries: StatementCache, sql: string, params: object): unknown[] {
  const statement = queries.get(sql);
  statement.setReturnArrays(true);
  return statement.all(params);
}

/** The page's rows (as `itemColumns` selected them) as one JSON array of its items. */
function jsonArrayOf(rows: readonly unknown[], items: PageItems): string {
  const texts =
    items.kind === 'records'
      ? (rows as RecordRow[]).map(([body]) => body)
      : listedViews(rows as MessageRow[], items);
  return `[${texts.join(',')}]`;
}

/**
 * Each row's API view, as GET by id answers it: `toMessageView`, without the null fields a
 * record moved in from the journals may hold (`omitNulls`, as defineRoute.ts answers a body).
 */
function listedViews(
  rows: readonly MessageRow[],
  items: Extract<PageItems, { kind: 'messageViews' }>,
): string[] {
  return rows.map(([id, created_at, seq, state, device_id, body]) => {
    const record = recordOfColumns({ id, created_at, seq, state, device_id, body });
    return JSON.stringify(omitNulls(toMessageView(record, items.withContent, items.unassignedDeviceId)));
  });
}

/** The page read for `filter` in the given order and window. */
export function pageRead(
  filter: HistoryFilter,
  page: Pick<PageRead, 'orderBy' | 'newestFirst' | 'keptTotal' | 'limit' | 'offset' | 'items'>,
): PageRead {
  const { indexedSearch, rowClauses, bounds } = filter;
  if (page.items.kind === 'records' && filter.table !== 'inbox') {
    throw new TypeError(`a page of ${filter.table} lists views, not records`);
  }
  return {
    table: filter.table,
    where: filter.where,
    params: filter.params,
    ...(indexedSearch && { search: { index: indexedSearch.index, rowClauses, bounds } }),
    ...page,
  };
}

/** Runs `read` on the connection behind `queries`, in time order. */
export function pagedRecords(queries: StatementCache, read: PageRead): JsonPage {
  if (read.search) return searchPage(queries, read, read.search);
  const total = read.where === '' ? read.keptTotal : countWhere(queries, read);
  const rows = pageRows(
    queries,
    `SELECT ${itemColumns(read.items)} FROM ${read.table} ${read.where}
     ORDER BY ${read.orderBy} LIMIT @limit OFFSET @offset`,
    { ...read.params, limit: sqlLimit(read.limit), offset: read.offset },
  );
  return { total, json: jsonArrayOf(rows, read.items) };
}

/**
 * Keys read past the page to count a search's matches in the same statement. Reading a key
 * costs about a third more than counting it, so a search with more matches than this pays at
 * most that much again for its separate count.
 */
const keysCountedAhead = 5_000;

/** A match's place in page order (searchIndex.ts): its rowid, time and tie-break. */
type Placed = [rowid: string, time: number, tieBreak: number];

/** Whether `left` comes before `right` on a page newest first (or oldest first). */
function precedes(left: Placed, right: Placed, newestFirst: boolean): boolean {
  const order = left[1] - right[1] || left[2] - right[2];
  return newestFirst ? order > 0 : order < 0;
}

/**
 * Where an indexed search's matches lie in its index's rowids (searchIndex.ts): the rows in
 * page order of the period, from `first` (undefined: from the first) to before `end` (undefined:
 * to the last), unless `empty`; and the rows listed as out of page order, `firstListed` to
 * `lastListed`, none when undefined. FTS5 takes a NULL bound of its rowid as none at all, so a
 * bound that does not exist is left out of the query, not passed as NULL.
 */
interface SearchBounds {
  empty: boolean;
  first?: number;
  end?: number;
  listed?: { firstListed: number; lastListed: number };
}

/** The bounds of `read`'s search for the period `bounds`: two steps of the time index, two of the list. */
function searchBounds(
  queries: StatementCache,
  read: PageRead,
  bounds: { from?: number; to?: number },
): SearchBounds {
  const { table } = read;
  const row = queries
    .get(
      `SELECT ${bounds.from === undefined ? 'NULL' : unlistedRowidAt(table, '@from')} AS first,
         ${bounds.to === undefined ? 'NULL' : unlistedRowidAt(table, '@to')} AS end,
         (SELECT min(stored_rowid) FROM ${table}_unordered) AS firstListed,
         (SELECT max(stored_rowid) FROM ${table}_unordered) AS lastListed`,
    )
    .get(read.params) as {
    first: number | null;
    end: number | null;
    firstListed: number | null;
    lastListed: number | null;
  };
  return {
    empty: bounds.from !== undefined && row.first === null,
    ...(row.first !== null && { first: row.first }),
    ...(row.end !== null && { end: row.end }),
    ...(row.firstListed !== null &&
      row.lastListed !== null && { listed: { firstListed: row.firstListed, lastListed: row.lastListed } }),
  };
}

/**
 * The page of an indexed search (searchIndex.ts), read in one transaction. Its matches are the
 * index's among the rows stored in page order, which come in rowid order, and the matches among
 * the rows listed as stored out of it, few, read with their keys and sorted. No row is read
 * unless a filter other than the period needs it, or listed matches are merged in.
 */
function searchPage(
  queries: StatementCache,
  read: PageRead,
  search: NonNullable<PageRead['search']>,
): JsonPage {
  queries.get('BEGIN').run();
  try {
    const bounds = searchBounds(queries, read, search.bounds);
    const listed = bounds.listed === undefined ? [] : listedMatches(queries, read, search, bounds.listed);
    const ordered = bounds.empty
      ? { start: 0, keys: [], total: 0 }
      : orderedMatches(queries, read, search, bounds, listed.length);
    const pageKeys = mergedPage(queries, read, ordered, listed);
    const total = ordered.total + listed.length;
    if (pageKeys.length === 0) return { total, json: '[]' };
    const rows = pageRows(
      queries,
      `SELECT ${itemColumns(read.items, 'stored.')} FROM json_each(@keys) AS listed
       JOIN ${read.table} AS stored ON stored.rowid = listed.value ORDER BY listed.key`,
      { keys: `[${pageKeys.join(',')}]` },
    );
    return { total, json: jsonArrayOf(rows, read.items) };
  } finally {
    queries.get('COMMIT').run();
  }
}

/** The matches of `search` among the rows listed as stored out of page order, in page order. */
function listedMatches(
  queries: StatementCache,
  read: PageRead,
  search: NonNullable<PageRead['search']>,
  listed: NonNullable<SearchBounds['listed']>,
): Placed[] {
  const { table } = read;
  const { time, tieBreak } = searchedOrder[table];
  const index = `${table}_${search.index}`;
  const clauses = [
    `${index} MATCH @probe`,
    `${index}.rowid BETWEEN @firstListed AND @lastListed`,
    ...search.rowClauses,
  ];
  if (search.bounds.from !== undefined) clauses.push(`stored.${time} >= @from`);
  if (search.bounds.to !== undefined) clauses.push(`stored.${time} < @to`);
  const direction = read.newestFirst ? 'DESC' : 'ASC';
  // The index first: each listed row probed in it would set its whole query up again.
  const statement = queries.get(
    `SELECT CAST(stored.rowid AS TEXT), stored.${time}, stored.${tieBreak}
     FROM ${index} CROSS JOIN ${table}_unordered AS listed ON listed.stored_rowid = ${index}.rowid
     CROSS JOIN ${table} AS stored ON stored.rowid = ${index}.rowid ${whereOf(clauses)}
     ORDER BY stored.${time} ${direction}, stored.${tieBreak} ${direction}`,
  );
  statement.setReturnArrays(true);
  return statement.all({ ...read.params, ...listed }) as Placed[];
}

/** The matches among the rows in page order that a page may hold, from `start` on, and their count. */
interface OrderedMatches {
  start: number;
  keys: string[];
  total: number;
}

/**
 * The index's matches among the rows stored in page order, in rowid order: from the one at
 * `offset` less the listed matches (each of which may come before it on the page), the page's
 * worth and the listed matches' more, then up to `keysCountedAhead` more, which give the
 * total when the matches end among them; else (or past the last match) a count takes it.
 */
function orderedMatches(
  queries: StatementCache,
  read: PageRead,
  search: NonNullable<PageRead['search']>,
  bounds: SearchBounds,
  listedCount: number,
): OrderedMatches {
  const { table, limit } = read;
  const index = `${table}_${search.index}`;
  const clauses = [`${index} MATCH @probe`, ...search.rowClauses];
  if (bounds.first !== undefined) clauses.push(`${index}.rowid >= @first`);
  if (bounds.end !== undefined) clauses.push(`${index}.rowid < @end`);
  if (bounds.listed !== undefined) {
    clauses.push(
      `NOT (${index}.rowid BETWEEN @firstListed AND @lastListed
        AND ${index}.rowid IN (SELECT stored_rowid FROM ${table}_unordered))`,
    );
  }
  const join =
    search.rowClauses.length === 0 ? '' : `JOIN ${table} AS stored ON stored.rowid = ${index}.rowid`;
  const matches = `FROM ${index} ${join} ${whereOf(clauses)}`;
  const params = { ...read.params, first: bounds.first, end: bounds.end, ...bounds.listed };
  const start = Math.max(0, read.offset - listedCount);
  const wanted = sqlLimit(limit) === -1 ? -1 : limit + listedCount + keysCountedAhead;
  // The keys come as one text, "k1,k2,…", where thousands of rows would each cross into
  // JavaScript; as digits they go back into SQL as they are.
  const listed = queries
    .get(
      `SELECT group_concat(rowid, ',') AS keys FROM (SELECT ${index}.rowid ${matches}
       ORDER BY ${index}.rowid ${read.newestFirst ? 'DESC' : 'ASC'} LIMIT @wanted OFFSET @start)`,
    )
    .get({ ...params, wanted, start }) as { keys: string | null };
  const keys = listed.keys === null ? [] : listed.keys.split(',');
  // Past the last match, the keys read say nothing of how many there were.
  const counted = (wanted === -1 || keys.length < wanted) && (keys.length > 0 || start === 0);
  const total = counted
    ? start + keys.length
    : (queries.get(`SELECT count(*) AS total ${matches}`).get(params) as { total: number }).total;
  return { start, keys, total };
}

/** The places of the rows of `table` with rowids `keys`, in their order. */
function placedMatches(queries: StatementCache, table: SearchedTable, keys: readonly string[]): Placed[] {
  const { time, tieBreak } = searchedOrder[table];
  const statement = queries.get(
    `SELECT CAST(stored.rowid AS TEXT), stored.${time}, stored.${tieBreak} FROM json_each(@keys) AS listed
     JOIN ${table} AS stored ON stored.rowid = listed.value ORDER BY listed.key`,
  );
  statement.setReturnArrays(true);
  return statement.all({ keys: `[${keys.join(',')}]` }) as Placed[];
}

/**
 * The rowids of the page: the ordered matches with the listed ones merged in by their keys.
 * The ordered matches read start at most `listed.length` before the page, and the page ends
 * before the last of them read (or they end), so every match of the page is among them or
 * listed; a listed match before the first one read is on the page only when they start at 0.
 */
function mergedPage(
  queries: StatementCache,
  read: PageRead,
  ordered: OrderedMatches,
  listed: Placed[],
): string[] {
  const { offset, limit, newestFirst } = read;
  const pageEnd = sqlLimit(limit) === -1 ? undefined : offset + limit;
  if (listed.length === 0) return ordered.keys.slice(0, limit);
  const window = sqlLimit(limit) === -1 ? ordered.keys : ordered.keys.slice(0, limit + listed.length);
  // None read: there are none, or the page lies past the last match.
  if (window.length === 0) {
    return ordered.start === 0 ? listed.slice(offset, pageEnd).map(([rowid]) => rowid) : [];
  }
  const placed = placedMatches(queries, read.table, window);
  const first = placed[0] as Placed;
  const before = listed.filter((match) => precedes(match, first, newestFirst));
  const merged: Placed[] = ordered.start === 0 ? [...before] : [];
  let next = before.length;
  for (const match of placed) {
    while (next < listed.length && precedes(listed[next] as Placed, match, newestFirst)) {
      merged.push(listed[next++] as Placed);
    }
    merged.push(match);
  }
  merged.push(...listed.slice(next));
  const mergedStart = ordered.start === 0 ? 0 : ordered.start + before.length;
  return merged
    .slice(offset - mergedStart, pageEnd === undefined ? undefined : pageEnd - mergedStart)
    .map(([rowid]) => rowid);
}
