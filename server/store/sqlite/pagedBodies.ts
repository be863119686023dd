import type { HistoryFilter, IndexedSearch } from './historyFilter.js';
import { sqlLimit, whereOf } from './queryFilter.js';
import { rowOfKey } from './searchIndex.js';
import type { StatementCache } from './statementCache.js';

/** Rows matching `filter`; `count(*)` reads every one, so an unfiltered page uses the kept total. */
function countWhere(queries: StatementCache, filter: HistoryFilter): number {
  const statement = queries.get(`SELECT count(*) AS total FROM ${filter.table} ${filter.where}`);
  return (statement.get(filter.params) as { total: number }).total;
}

/** The row count the schema's triggers keep for `table` (`row_counts`): no scan, at any size. */
export function keptRowCount(queries: StatementCache, table: 'messages' | 'inbox'): number {
  const statement = queries.get('SELECT total FROM row_counts WHERE name = @table');
  return (statement.get({ table }) as { total: number }).total;
}

interface PageRequest {
  filter: HistoryFilter;
  /** The table's order for a page without an indexed search (its time, then a tie-break). */
  orderBy: string;
  newestFirst: boolean;
  keptTotal: number;
  limit: number;
  offset: number;
}

/**
 * One page of `messages` or `inbox`, whose rows keep their record as JSON in `body`, in time
 * order, with the total of the filter (`keptTotal` for an unfiltered page: the UI's first view
 * must not count a million rows).
 */
export function pagedBodies<Item>(
  queries: StatementCache,
  page: PageRequest,
): { total: number; items: Item[] } {
  const { filter } = page;
  if (filter.indexedSearch) return searchPage<Item>(queries, page, filter.indexedSearch);
  const { table } = filter;
  const total = filter.where === '' ? page.keptTotal : countWhere(queries, filter);
  const rows = queries
    .get(`SELECT body FROM ${table} ${filter.where} ORDER BY ${page.orderBy} LIMIT @limit OFFSET @offset`)
    .all({ ...filter.params, limit: sqlLimit(page.limit), offset: page.offset }) as { body: string }[];
  return { total, items: rows.map((row) => JSON.parse(row.body) as Item) };
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
function searchPage<Item>(
  queries: StatementCache,
  page: PageRequest,
  search: IndexedSearch,
): { total: number; items: Item[] } {
  const { filter, limit, offset } = page;
  const { table, keyRange } = filter;
  const index = `${table}_${search.index}`;
  const clauses = [`${index} MATCH @probe`, ...filter.rowClauses];
  if (keyRange.from !== undefined) clauses.push(`${index}.rowid >= @fromKey`);
  if (keyRange.to !== undefined) clauses.push(`${index}.rowid < @toKey`);
  const join = filter.rowClauses.length === 0 ? '' : `JOIN ${rowOfKey(table, `${index}.rowid`)}`;
  const matches = `FROM ${index} ${join} ${whereOf(clauses)}`;
  const params = { ...filter.params, fromKey: keyRange.from, toKey: keyRange.to };

  const wanted = sqlLimit(limit) === -1 ? -1 : limit + keysCountedAhead;
  const keys = queries
    .get(
      `SELECT ${index}.rowid ${matches}
       ORDER BY ${index}.rowid ${page.newestFirst ? 'DESC' : 'ASC'} LIMIT @wanted OFFSET @offset`,
    )
    .safeIntegers(true)
    .pluck()
    .all({ ...params, wanted, offset }) as bigint[];
  // Past the last match, the keys read say nothing of how many there were.
  const counted = (wanted === -1 || keys.length < wanted) && (keys.length > 0 || offset === 0);
  const total = counted
    ? offset + keys.length
    : (queries.get(`SELECT count(*) AS total ${matches}`).get(params) as { total: number }).total;
  const pageKeys = keys.slice(0, limit);
  if (pageKeys.length === 0) return { total, items: [] };
  const bodies = queries
    .get(
      `SELECT stored.body FROM json_each(@keys) AS listed JOIN ${rowOfKey(table, 'listed.value')} ORDER BY listed.key`,
    )
    .pluck()
    .all({ keys: `[${pageKeys.join(',')}]` }) as string[];
  return { total, items: bodies.map((body) => JSON.parse(body) as Item) };
}
