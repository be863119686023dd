import { foldText } from '../../contract/domain/textFold.js';
import type { Database } from './sqlite.js';

/**
 * How `?search=` finds its matches without reading the rows (schema version 8; 9 for the number
 * indexes' column lists; 10 for a message whose text was edited; 21 for the rowid keys).
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
 * An index's rowid is the row's own: FTS5 stores each match as the gap to the one before, and
 * rows stored one after the other give gaps of a byte. Rows are stored in the order of their
 * page key (time, then `seq` or rowid, `searchedOrder`) nearly always, since the gateway stamps
 * them as it stores them; a row that is not (a clock set back, a message moved in from older
 * files) is listed in `<table>_unordered`. When a new row comes before stored rows not listed,
 * the insert trigger lists it, or those rows if they are a few (a row stamped ahead); a row
 * whose time or tie-break is changed is listed too. So every row not listed comes after each
 * row not listed stored before it: those rows come in rowid order exactly as in page order,
 * the index's matches among them need no sort, and a period is a rowid range of them, bounded
 * through the time index (`unlistedRowidAt`). The listed rows matching a search are read
 * apart, sorted by their key, and merged in (pagedRecords.ts). Their number is the disorder
 * the clock made: a clock set back an hour lists about an hour of rows.
 */

/** What a page of each searched table is ordered by: its time, then a tie-break unique to a row. */
export const searchedOrder: Record<SearchedTable, { time: string; tieBreak: string }> = {
  messages: { time: 'created_at', tieBreak: 'seq' },
  inbox: { time: 'received_at', tieBreak: 'rowid' },
};

/**
 * Bits of the keys of schema versions 8 to 20 that held the low bits of the rowid, above the
 * row's time: the steps of those versions still write them, and step 21 replaces them.
 */
const timeKeyRowidBits = 20;

/** SQL for the index key that versions 8 to 20 gave a row with `time` and `rowid`. */
function timeKey(time: string, rowid: string): string {
  const latest = 2 ** (63 - timeKeyRowidBits) - 1;
  const mask = 2 ** timeKeyRowidBits - 1;
  return `((min(max(${time}, 0), ${latest}) << ${timeKeyRowidBits}) + (${rowid} & ${mask}))`;
}

/** Longest digits token: a longer needle is looked up by its first 32 digits, then checked. */
const longestDigitsToken = 32;

export type SearchedTable = 'messages' | 'inbox';

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
 * `search_fold` serves schema step 16; `search_order_add` and `search_order_outside`, step 21.
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
  // Step 21's, in two: each row in, then the rowids to list once all are in (an aggregate's
  // state would cross into SQLite and back at every row).
  let run = new PageOrderRun();
  db.function('search_order_add', (rowid: number, time: number, tieBreak: number) => {
    run.add(rowid, time, tieBreak);
    return 1;
  });
  db.function('search_order_outside', (_added: number) => {
    const outside = run.outside();
    run = new PageOrderRun();
    return JSON.stringify(outside);
  });
}

/**
 * Rows with their page keys (time, tie-break), and the fewest of them to list so that the
 * others come in page order when read in rowid order: those outside a longest run, in rowid
 * order, of rows whose keys grow. Patience sorting finds one: `ends[k]` is the row that ends
 * the runs of k + 1 rows with the smallest key, `before[row]` the row before it in its run.
 */
class PageOrderRun {
  private readonly rowids: number[] = [];
  private readonly times: number[] = [];
  private readonly tieBreaks: number[] = [];

  add(rowid: number, time: number, tieBreak: number): void {
    this.rowids.push(rowid);
    this.times.push(time);
    this.tieBreaks.push(tieBreak);
  }

  /** The rowids outside one longest growing run. */
  outside(): number[] {
    const rows = Array.from(this.rowids.keys()).sort(
      (left, right) => (this.rowids[left] as number) - (this.rowids[right] as number),
    );
    const ends: number[] = [];
    const before: number[] = [];
    for (const row of rows) {
      // The first run end above the row: the row ends a run one longer than the run before it.
      let low = 0;
      let high = ends.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (this.above(ends[middle] as number, row)) high = middle;
        else low = middle + 1;
      }
      before[row] = low === 0 ? -1 : (ends[low - 1] as number);
      ends[low] = row;
    }
    const inRun = new Set<number>();
    for (let row = ends.at(-1) ?? -1; row !== -1; row = before[row] as number) inRun.add(row);
    return rows.filter((row) => !inRun.has(row)).map((row) => this.rowids[row] as number);
  }

  private above(left: number, right: number): boolean {
    const order = (this.times[left] as number) - (this.times[right] as number);
    return order > 0 || (order === 0 && (this.tieBreaks[left] as number) > (this.tieBreaks[right] as number));
  }
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

/**
 * SQL for a row's index key: `row` is '' for the row a SELECT reads, 'new.' or 'old.' in a
 * trigger.
 */
type KeyOf = (table: SearchedTable, row: '' | 'new.' | 'old.') => string;

/** The key of versions 8 to 20 (`timeKey`). */
const timeKeyOf: KeyOf = (table, row) => timeKey(`${row}${searchedOrder[table].time}`, `${row}rowid`);

/** The key since version 21: the row's rowid. */
const rowidKeyOf: KeyOf = (_table, row) => `${row}rowid`;

/** SQL that makes the text index of `table` and fills it from the table's rows. */
function textIndex(table: SearchedTable, keyOf: KeyOf): string {
  return `
  CREATE VIRTUAL TABLE ${table}_text USING fts5 (text, content = '', contentless_delete = 1, tokenize = 'trigram');
  INSERT INTO ${table}_text (${table}_text, rank) VALUES ('automerge', 16);
  INSERT INTO ${table}_text (rowid, text) SELECT ${keyOf(table, '')}, search_text(search) FROM ${table};`;
}

/** SQL that makes the number index of `table` with column lists (version 9) and fills it. */
function digitsIndex(table: SearchedTable, keyOf: KeyOf): string {
  return `
  CREATE VIRTUAL TABLE ${table}_digits USING fts5 (digits, content = '', contentless_delete = 1, detail = column);
  INSERT INTO ${table}_digits (${table}_digits, rank) VALUES ('automerge', 16);
  INSERT INTO ${table}_digits (rowid, digits) SELECT ${keyOf(table, '')}, search_digits(search) FROM ${table};`;
}

/** The statements of a trigger that add the `new` row to both indexes of `table`. */
function indexNew(table: SearchedTable, keyOf: KeyOf): string {
  return `INSERT INTO ${table}_text (rowid, text) VALUES (${keyOf(table, 'new.')}, search_text(new.search));
    INSERT INTO ${table}_digits (rowid, digits) VALUES (${keyOf(table, 'new.')}, search_digits(new.search));`;
}

/** The statements of a trigger that remove the `old` row from both indexes of `table`. */
function unindexOld(table: SearchedTable, keyOf: KeyOf): string {
  return `DELETE FROM ${table}_text WHERE rowid = ${keyOf(table, 'old.')};
    DELETE FROM ${table}_digits WHERE rowid = ${keyOf(table, 'old.')};`;
}

/** The schema step to version 8 for one table: the two indexes, filled from its rows, and triggers. */
export function searchIndexStep(table: SearchedTable): string {
  return `
  DROP TRIGGER ${table}_search_insert;
  DROP TRIGGER ${table}_search_delete;
  DROP TABLE ${table}_search;
  ${textIndex(table, timeKeyOf)}
  CREATE VIRTUAL TABLE ${table}_digits USING fts5 (digits, content = '', contentless_delete = 1, detail = none);
  INSERT INTO ${table}_digits (${table}_digits, rank) VALUES ('automerge', 16);
  INSERT INTO ${table}_digits (rowid, digits) SELECT ${timeKeyOf(table, '')}, search_digits(search) FROM ${table};
  CREATE TRIGGER ${table}_search_insert AFTER INSERT ON ${table} BEGIN
    ${indexNew(table, timeKeyOf)}
  END;
  CREATE TRIGGER ${table}_search_delete AFTER DELETE ON ${table} BEGIN
    ${unindexOld(table, timeKeyOf)}
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
  ${digitsIndex(table, timeKeyOf)}
  `;
}

/** The trigger that keeps the indexes of `table` in step with a changed `search` column. */
function searchUpdateTrigger(table: SearchedTable, keyOf: KeyOf): string {
  return `
  CREATE TRIGGER ${table}_search_update AFTER UPDATE OF search ON ${table}
  WHEN old.search IS NOT new.search BEGIN
    ${unindexOld(table, keyOf)}
    ${indexNew(table, keyOf)}
  END;`;
}

/**
 * The schema step to version 10 for one table: its indexes follow a changed `search` column
 * (a scheduled message whose text was edited). Before, they kept the first text's words.
 */
export function searchUpdateStep(table: SearchedTable): string {
  return searchUpdateTrigger(table, timeKeyOf);
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
  ${textIndex('messages', timeKeyOf)}
  ${textIndex('inbox', timeKeyOf)}
  `;
}

/**
 * Stored rows of `table` not listed as out of page order that come after the `new` row: as two
 * ranges of the time index, since a row value's range seeks by its first column only and
 * would step through every row of the new row's millisecond.
 */
function unlistedAfterNew(table: SearchedTable): string {
  const { time, tieBreak } = searchedOrder[table];
  const unlisted = `rowid NOT IN (SELECT stored_rowid FROM ${table}_unordered)`;
  return `SELECT rowid FROM ${table} WHERE ${time} = new.${time} AND ${tieBreak} > new.${tieBreak} AND ${unlisted}
      UNION ALL SELECT rowid FROM ${table} WHERE ${time} > new.${time} AND ${unlisted}`;
}

/**
 * At most this many stored rows after a new one are listed in its stead: a row stamped ahead
 * (a clock set forward, then put right) lists itself, not every row stored after it.
 */
const fewAfterNew = 16;

/**
 * The schema step to version 21 for one table: both indexes keyed by the row's rowid, and the
 * rows stored out of page order listed (see above), as few as can be (`PageOrderRun`). Each
 * index is merged into one segment once filled ('optimize'): filled in one statement, it is
 * left in as many segments as its buffer was flushed, and every search reads each of them. From
 * then on the insert trigger lists the rows that a new one comes before, when they are few, or
 * else the new one; a row whose time or tie-break is changed is listed too. So the rows not
 * listed always come in page order.
 */
export function rowidKeyStep(table: SearchedTable): string {
  const { time, tieBreak } = searchedOrder[table];
  const reordered = table === 'messages' ? `${time}, ${tieBreak}` : time;
  return `
  DROP TRIGGER ${table}_search_insert;
  DROP TRIGGER ${table}_search_delete;
  ${table === 'messages' ? 'DROP TRIGGER messages_search_update;' : ''}
  DROP TABLE ${table}_text;
  DROP TABLE ${table}_digits;
  CREATE TABLE ${table}_unordered (stored_rowid INTEGER PRIMARY KEY);
  INSERT INTO ${table}_unordered (stored_rowid)
    SELECT value FROM json_each((SELECT search_order_outside(added) FROM (
      SELECT count(search_order_add(rowid, ${time}, ${tieBreak})) AS added FROM ${table})));
  ${textIndex(table, rowidKeyOf)}
  ${digitsIndex(table, rowidKeyOf)}
  INSERT INTO ${table}_text (${table}_text) VALUES ('optimize');
  INSERT INTO ${table}_digits (${table}_digits) VALUES ('optimize');
  CREATE TRIGGER ${table}_search_insert AFTER INSERT ON ${table} BEGIN
    ${indexNew(table, rowidKeyOf)}
    INSERT INTO ${table}_unordered (stored_rowid)
      SELECT rowid FROM (${unlistedAfterNew(table)})
      WHERE (SELECT count(*) FROM (${unlistedAfterNew(table)} LIMIT ${fewAfterNew + 1})) <= ${fewAfterNew};
    INSERT INTO ${table}_unordered (stored_rowid) SELECT new.rowid WHERE EXISTS (${unlistedAfterNew(table)});
  END;
  CREATE TRIGGER ${table}_search_delete AFTER DELETE ON ${table} BEGIN
    ${unindexOld(table, rowidKeyOf)}
    DELETE FROM ${table}_unordered WHERE stored_rowid = old.rowid;
  END;
  CREATE TRIGGER ${table}_search_reorder AFTER UPDATE OF ${reordered} ON ${table} BEGIN
    INSERT OR IGNORE INTO ${table}_unordered (stored_rowid) VALUES (new.rowid);
  END;
  ${table === 'messages' ? searchUpdateTrigger(table, rowidKeyOf) : ''}
  `;
}

/**
 * SQL for the rowid of the first row of `table` in page order at or after the time `param`
 * (an SQL parameter) among the rows not listed as stored out of it: through the time index,
 * stepping over the listed rows. NULL when there is none.
 */
export function unlistedRowidAt(table: SearchedTable, param: string): string {
  const { time, tieBreak } = searchedOrder[table];
  return `(SELECT rowid FROM ${table} WHERE ${time} >= ${param}
    AND rowid NOT IN (SELECT stored_rowid FROM ${table}_unordered) ORDER BY ${time}, ${tieBreak} LIMIT 1)`;
}
