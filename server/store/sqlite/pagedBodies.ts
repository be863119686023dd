import type { QueryFilter } from './queryFilter.js';
import { sqlLimit } from './queryFilter.js';
import type { StatementCache } from './statementCache.js';

/** Rows matching `filter` in `table`; `count(*)` reads every one, so unfiltered callers keep a total. */
export function countWhere(queries: StatementCache, table: string, filter: QueryFilter): number {
  const statement = queries.get(`SELECT count(*) AS total FROM ${table} ${filter.where}`);
  return (statement.get(filter.params) as { total: number }).total;
}

/** The row count the schema's triggers keep for `table` (`row_counts`): no scan, at any size. */
export function keptRowCount(queries: StatementCache, table: 'messages' | 'inbox'): number {
  const statement = queries.get('SELECT total FROM row_counts WHERE name = @table');
  return (statement.get({ table }) as { total: number }).total;
}

/**
 * One page of a table whose rows keep their record as JSON in `body`, newest first by
 * `orderBy`, with the total of the filter (`keptTotal` for an unfiltered page: the UI's first
 * view must not count a million rows).
 */
export function pagedBodies<Item>(
  queries: StatementCache,
  page: {
    table: string;
    orderBy: string;
    filter: QueryFilter;
    keptTotal: number;
    limit: number;
    offset: number;
  },
): { total: number; items: Item[] } {
  const { table, orderBy, filter } = page;
  if (filter.searching) return searchPage<Item>(queries, page);
  const total = filter.where === '' ? page.keptTotal : countWhere(queries, table, filter);
  const rows = queries
    .get(`SELECT body FROM ${table} ${filter.where} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`)
    .all({ ...filter.params, limit: sqlLimit(page.limit), offset: page.offset }) as { body: string }[];
  return { total, items: rows.map((row) => JSON.parse(row.body) as Item) };
}

/**
 * The page of a search, in one pass over its matches. They come from the trigram index in rowid
 * order and each is checked against its row, so reading them twice (once to count, once for the
 * page) was most of a search's cost: the window count is taken over every match before the sort
 * and LIMIT, and only the page's keys leave the statement. Their bodies are read by rowid after
 * (sorting whole rows would copy every match's body into the sorter). Same rows, same order.
 */
function searchPage<Item>(
  queries: StatementCache,
  page: { table: string; orderBy: string; filter: QueryFilter; limit: number; offset: number },
): { total: number; items: Item[] } {
  const { table, orderBy, filter } = page;
  const keys = queries
    .get(
      `SELECT rowid AS key, count(*) OVER () AS total FROM ${table} ${filter.where}
       ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`,
    )
    .all({ ...filter.params, limit: sqlLimit(page.limit), offset: page.offset }) as {
    key: number;
    total: number;
  }[];
  // A page past the last match has no row to carry the count.
  const total = keys[0]?.total ?? (page.offset === 0 ? 0 : countWhere(queries, table, filter));
  if (keys.length === 0) return { total, items: [] };
  const rows = queries
    .get(`SELECT body FROM ${table} WHERE rowid IN (SELECT value FROM json_each(@keys)) ORDER BY ${orderBy}`)
    .all({ keys: JSON.stringify(keys.map((row) => row.key)) }) as { body: string }[];
  return { total, items: rows.map((row) => JSON.parse(row.body) as Item) };
}
