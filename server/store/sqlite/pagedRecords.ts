import type { MessageRecord } from '../../domain/message.js';
import { withStateTimes } from '../../domain/stateTimes.js';
import type { MessageListForm } from '../repositories.js';
import type { HistoryFilter, IndexedSearch } from './historyFilter.js';
import { sqlLimit, whereOf } from './queryFilter.js';
import { rowOfKey, type SearchedTable } from './searchIndex.js';
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
    keyRange: { from?: bigint; to?: bigint };
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
 * What a page lists: the received messages' stored records (`body`; a message's row spreads its
 * record over its columns, messageRecordColumns.ts), or the API's views of messages as
 * stored beside them (`view`, `view_content`: `storedMessageView` in messageView.ts), completed
 * here with the state times from `body`, the gateway's device id and, when asked, the content.
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
/** `content` is selected only when the page lists content. */
type ViewRow = [id: string, view: string, deviceId: string | null, states: string, content?: string];

/** The columns of `table` (aliased `alias`, if given) that `items` are made of, in a row's order. */
function itemColumns(items: PageItems, alias = ''): string {
  if (items.kind === 'records') return `${alias}body`;
  const content = items.withContent ? `, ${alias}view_content` : '';
  return `${alias}id, ${alias}view, ${alias}device_id, json_extract(${alias}body, '$.states')${content}`;
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
      : listedViews(rows as ViewRow[], items);
  return `[${texts.join(',')}]`;
}

/** Stored views completed as `toMessageView` gives them: the stand-in device id, the content. */
function listedViews(
  rows: readonly ViewRow[],
  items: Extract<PageItems, { kind: 'messageViews' }>,
): string[] {
  const standIn =
    items.unassignedDeviceId === undefined
      ? undefined
      : JSON.stringify({ deviceId: items.unassignedDeviceId });
  return rows.map(([id, stored, deviceId, states, content]) => {
    // The view's members follow the id, and the device follows them, as toMessageView orders them.
    const timed = withStateTimes(stored, JSON.parse(states) as MessageRecord['states']);
    const identified = `{"id":${JSON.stringify(id)},${timed.slice(1)}`;
    const device = deviceId === null ? standIn : JSON.stringify({ deviceId });
    const view = device === undefined ? identified : withMembers(identified, device);
    return content === undefined ? view : withMembers(view, content);
  });
}

/**
 * `object` with the members of `members` added after its own; both are non-empty JSON objects
 * as `JSON.stringify` writes them (no whitespace around the braces), so this is text only.
 */
function withMembers(object: string, members: string): string {
  return `${object.slice(0, -1)},${members.slice(1)}`;
}

/** The page read for `filter` in the given order and window. */
export function pageRead(
  filter: HistoryFilter,
  page: Pick<PageRead, 'orderBy' | 'newestFirst' | 'keptTotal' | 'limit' | 'offset' | 'items'>,
): PageRead {
  const { indexedSearch, rowClauses, keyRange } = filter;
  if (page.items.kind === 'records' && filter.table !== 'inbox') {
    throw new TypeError(`a page of ${filter.table} lists views, not records`);
  }
  return {
    table: filter.table,
    where: filter.where,
    params: filter.params,
    ...(indexedSearch && { search: { index: indexedSearch.index, rowClauses, keyRange } }),
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

/**
 * The page of an indexed search (searchIndex.ts): its keys come from the index in time order,
 * exact, so no row is read unless a filter other than the period needs it. One statement reads
 * the page's keys and up to `keysCountedAhead` more, which give the total when the matches end
 * among them; else (or past the last match) a count takes it. The page's bodies are then read
 * by key through the table's time index.
 */
function searchPage(
  queries: StatementCache,
  read: PageRead,
  search: NonNullable<PageRead['search']>,
): JsonPage {
  const { table, limit, offset } = read;
  const { keyRange, rowClauses } = search;
  const index = `${table}_${search.index}`;
  const clauses = [`${index} MATCH @probe`, ...rowClauses];
  if (keyRange.from !== undefined) clauses.push(`${index}.rowid >= @fromKey`);
  if (keyRange.to !== undefined) clauses.push(`${index}.rowid < @toKey`);
  const join = rowClauses.length === 0 ? '' : `JOIN ${rowOfKey(table, `${index}.rowid`)}`;
  const matches = `FROM ${index} ${join} ${whereOf(clauses)}`;
  const params = { ...read.params, fromKey: keyRange.from, toKey: keyRange.to };

  const wanted = sqlLimit(limit) === -1 ? -1 : limit + keysCountedAhead;
  // The keys come as one text, "k1,k2,…", where thousands of rows would each cross into
  // JavaScript; as digits they stay exact past 2^53 and go back into SQL as they are.
  const listed = queries
    .get(
      `SELECT group_concat(rowid, ',') AS keys FROM (SELECT ${index}.rowid ${matches}
       ORDER BY ${index}.rowid ${read.newestFirst ? 'DESC' : 'ASC'} LIMIT @wanted OFFSET @offset)`,
    )
    .get({ ...params, wanted, offset }) as { keys: string | null };
  const keys = listed.keys === null ? [] : listed.keys.split(',');
  // Past the last match, the keys read say nothing of how many there were.
  const counted = (wanted === -1 || keys.length < wanted) && (keys.length > 0 || offset === 0);
  const total = counted
    ? offset + keys.length
    : (queries.get(`SELECT count(*) AS total ${matches}`).get(params) as { total: number }).total;
  const pageKeys = keys.slice(0, limit);
  if (pageKeys.length === 0) return { total, json: '[]' };
  const rows = pageRows(
    queries,
    `SELECT ${itemColumns(read.items, 'stored.')} FROM json_each(@keys) AS listed
     JOIN ${rowOfKey(table, 'listed.value')} ORDER BY listed.key`,
    { keys: `[${pageKeys.join(',')}]` },
  );
  return { total, json: jsonArrayOf(rows, read.items) };
}
