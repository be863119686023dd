import { foldText } from '../../domain/textFold.js';
import type { Database } from './sqlite.js';

/**
 * How `?search=` finds its matches without reading the rows (schema version 8; 9 for the number
 * indexes' column lists; 10 for a message whose text was edited).
 *
 * Each searched table (`messages`, `inbox`) has two contentless FTS5 indexes over its `search`
 * column, which holds the row's text folded (`foldText`: lowercased, without accents, since
 * version 16) as the needle is:
 * - `<table>_digits`: every run of digits, as one token per suffix ("4477" gives "4477 477 77 7",
 *   and "p4477" when a "+" leads it). A needle of digits (with or without a leading "+") is then a
 *   prefix query: a number contains it exactly when one of its suffixes starts with it (with a
 *   column list per match since schema version 9, `digitsIndexStep`, for faster prefix queries). A
 *   trigram index found such a needle through trigrams that the country and area codes put in
 *   nearly every row, or through a part of it, checked against each row after.
 * - `<table>_text`: trigrams of the column without its lines that are whole numbers
 *   (`textTrigramSource`), for every other needle of three or more characters. A trigram phrase
 *   is an exact substring match, and such a needle cannot be part of a number like "+4477…"
 *   (all of whose parts are digits after an optional "+"), so those lines are never looked for
 *   there: they were a fifth of the index at 1,000,000 stored.
 * Either way the index's answer is exact, so no row is read to check it. A needle with a line
 * break in it (where `search` joins text and numbers, and where the text index joins what is
 * left) is scanned for instead.
 *
 * Their rowid is not the row's: it is the row's time and the low 20 bits of its rowid
 * (`searchKey`). FTS5 returns matches in rowid order, so they come newest first without a sort,
 * and a period is a rowid range of the index. The row behind a key is found through the
 * table's time index. Times are clamped to 1970–2248 so that the key fits 63 bits: a row
 * stamped outside that span is counted, but its place in the order is wrong and it is left
 * off the page. Within one millisecond, rows come in the order they were stored, as
 * the pages without a search (`seq`, `rowid`) do, except across a multiple of 2^20 rowids. Two
 * rows with one key (stored in the same millisecond, 2^20 rowids apart) share it: FTS5 takes
 * the second insert, and a match lists both rows.
 */

/** Bits of the key that hold the low bits of the rowid. */
const rowidBits = 20;
const rowidMask = 2 ** rowidBits - 1;
/** The latest time a key can hold: 2^43 − 1 ms, in the year 2248. */
const latestKeyTime = 2 ** (63 - rowidBits) - 1;

/** Longest digits token: a longer needle is looked up by its first 32 digits, then checked. */
const longestDigitsToken = 32;

export type SearchedTable = 'messages' | 'inbox';

/** The column each searched table is ordered and bounded by. */
export const searchedTimeColumn: Record<SearchedTable, string> = {
  messages: 'created_at',
  inbox: 'received_at',
};

/** SQL for the index key of a row with `time` and `rowid` (SQL expressions). */
export function searchKey(time: string, rowid: string): string {
  return `((min(max(${time}, 0), ${latestKeyTime}) << ${rowidBits}) + (${rowid} & ${rowidMask}))`;
}

/** The first key at or after `time` (ms), for a period's bounds. */
export function firstKeyAt(time: number): bigint {
  return BigInt(Math.min(Math.max(Math.trunc(time), 0), latestKeyTime)) << BigInt(rowidBits);
}

/** SQL that joins `table` (alias `stored`) to the index key `key` (an SQL expression). */
export function rowOfKey(table: SearchedTable, key: string): string {
  return `${table} AS stored ON stored.${searchedTimeColumn[table]} = ${key} >> ${rowidBits} AND (stored.rowid & ${rowidMask}) = (${key} & ${rowidMask})`;
}

/** The digits index's text for one `search` column: its digit runs' suffixes (see above). */
export function digitsTokens(search: string): string {
  const tokens: string[] = [];
  for (const [, plus, digits = ''] of search.matchAll(/(\+?)([0-9]+)/g)) {
    if (plus) tokens.push(`p${digits.slice(0, longestDigitsToken)}`);
    for (let start = 0; start < digits.length; start++) {
      tokens.push(digits.slice(start, start + longestDigitsToken));
    }
  }
  return tokens.join(' ');
}

/** A whole number: digits after an optional "+" (which the groups give apart). */
const wholeNumber = /^(\+?)([0-9]+)$/;

/** What the text index holds of a `search` column: its lines that are not whole numbers. */
export function textTrigramSource(search: string): string {
  return search
    .split('\n')
    .filter((line) => !wholeNumber.test(line))
    .join('\n');
}

/**
 * Makes `search_digits` and `search_text` known to `db`: the schema's triggers call them on
 * every insert, so every connection that writes rows registers them before its first statement.
 */
export function registerSearchFunctions(db: Database): void {
  db.function('search_digits', { deterministic: true }, (search: unknown) =>
    typeof search === 'string' ? digitsTokens(search) : '',
  );
  db.function('search_text', { deterministic: true }, (search: unknown) =>
    typeof search === 'string' ? textTrigramSource(search) : '',
  );
  db.function('search_fold', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? foldText(text) : '',
  );
}

/** How one needle is looked up. */
export type SearchPlan =
  | { kind: 'index'; index: 'digits' | 'text'; probe: string; checkRows: boolean }
  /** Shorter than a trigram and not a number, or across lines: `instr` over the rows. */
  | { kind: 'scan' };

/** The plan for a needle (already trimmed and folded by `normaliseNeedle`). */
export function searchPlan(needle: string): SearchPlan {
  const number = wholeNumber.exec(needle);
  if (number) {
    const [, plus, digits = ''] = number;
    return {
      kind: 'index',
      index: 'digits',
      probe: `"${plus ? 'p' : ''}${digits.slice(0, longestDigitsToken)}"*`,
      checkRows: digits.length > longestDigitsToken,
    };
  }
  // Trigrams count code points: a needle of fewer has none, and FTS5 would match nothing.
  if ([...needle].length < 3 || needle.includes('\n')) return { kind: 'scan' };
  return { kind: 'index', index: 'text', probe: `"${needle.replaceAll('"', '""')}"`, checkRows: false };
}

/** SQL that makes the text index of `table` and fills it from the table's rows. */
function textIndex(table: SearchedTable): string {
  return `
  CREATE VIRTUAL TABLE ${table}_text USING fts5 (text, content = '', contentless_delete = 1, tokenize = 'trigram');
  INSERT INTO ${table}_text (${table}_text, rank) VALUES ('automerge', 16);
  INSERT INTO ${table}_text (rowid, text)
    SELECT ${searchKey(searchedTimeColumn[table], 'rowid')}, search_text(search) FROM ${table};`;
}

/** The schema step to version 8 for one table: the two indexes, filled from its rows, and triggers. */
export function searchIndexStep(table: SearchedTable): string {
  const key = (row: 'new' | 'old') => searchKey(`${row}.${searchedTimeColumn[table]}`, `${row}.rowid`);
  return `
  DROP TRIGGER ${table}_search_insert;
  DROP TRIGGER ${table}_search_delete;
  DROP TABLE ${table}_search;
  ${textIndex(table)}
  CREATE VIRTUAL TABLE ${table}_digits USING fts5 (digits, content = '', contentless_delete = 1, detail = none);
  INSERT INTO ${table}_digits (${table}_digits, rank) VALUES ('automerge', 16);
  INSERT INTO ${table}_digits (rowid, digits)
    SELECT ${searchKey(searchedTimeColumn[table], 'rowid')}, search_digits(search) FROM ${table};
  CREATE TRIGGER ${table}_search_insert AFTER INSERT ON ${table} BEGIN
    INSERT INTO ${table}_text (rowid, text) VALUES (${key('new')}, search_text(new.search));
    INSERT INTO ${table}_digits (rowid, digits) VALUES (${key('new')}, search_digits(new.search));
  END;
  CREATE TRIGGER ${table}_search_delete AFTER DELETE ON ${table} BEGIN
    DELETE FROM ${table}_text WHERE rowid = ${key('old')};
    DELETE FROM ${table}_digits WHERE rowid = ${key('old')};
  END;
  `;
}

/**
 * The schema step to version 9 for one table: its number index again, with a column list per
 * match. With detail = none FTS5 merges the doclists of a prefix query's terms two by two; with
 * column lists, 16 at a time, so a prefix that many numbers share reads its keys faster, for a
 * larger index. The triggers of version 8's step write to the new table, which has the
 * old one's name.
 */
export function digitsIndexStep(table: SearchedTable): string {
  return `
  DROP TABLE ${table}_digits;
  CREATE VIRTUAL TABLE ${table}_digits USING fts5 (digits, content = '', contentless_delete = 1, detail = column);
  INSERT INTO ${table}_digits (${table}_digits, rank) VALUES ('automerge', 16);
  INSERT INTO ${table}_digits (rowid, digits)
    SELECT ${searchKey(searchedTimeColumn[table], 'rowid')}, search_digits(search) FROM ${table};
  `;
}

/**
 * The schema step to version 10 for one table: its indexes follow a changed `search` column
 * (a scheduled message whose text was edited). Before, they kept the first text's words.
 */
export function searchUpdateStep(table: SearchedTable): string {
  const key = (row: 'new' | 'old') => searchKey(`${row}.${searchedTimeColumn[table]}`, `${row}.rowid`);
  return `
  CREATE TRIGGER ${table}_search_update AFTER UPDATE OF search ON ${table}
  WHEN old.search IS NOT new.search BEGIN
    DELETE FROM ${table}_text WHERE rowid = ${key('old')};
    DELETE FROM ${table}_digits WHERE rowid = ${key('old')};
    INSERT INTO ${table}_text (rowid, text) VALUES (${key('new')}, search_text(new.search));
    INSERT INTO ${table}_digits (rowid, digits) VALUES (${key('new')}, search_digits(new.search));
  END;
  `;
}

/**
 * The schema step to version 16: the searched text of every stored message, received message
 * and contact is folded (`foldText`) as new rows' is, so a search finds it without regard to
 * accents. Only the rows whose text folding changes are written, with the messages' update
 * trigger (version 10) off: row by row it tombstoned and added each row in both indexes, and
 * took a while for tens of thousands. The text indexes are made again from the folded rows
 * instead; the number indexes stay, as folding leaves the digits as they are.
 */
export function foldedSearchStep(): string {
  return `
  DROP TRIGGER messages_search_update;
  UPDATE messages SET search = search_fold(search) WHERE search_fold(search) <> search;
  UPDATE inbox SET search = search_fold(search) WHERE search_fold(search) <> search;
  UPDATE desk_contacts SET search = search_fold(search) WHERE search_fold(search) <> search;
  ${searchUpdateStep('messages')}
  DROP TABLE messages_text;
  DROP TABLE inbox_text;
  ${textIndex('messages')}
  ${textIndex('inbox')}
  `;
}
