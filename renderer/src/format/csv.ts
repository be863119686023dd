import { csvSeparators } from '../../../server/contract/domain/csvTable.js';
import { MaxPageSize } from '../../../server/contract/schemas/primitives.js';

/**
 * Client-side CSV export (RFC 4180: comma separated, CRLF rows, fields with a comma, quote or
 * line break are quoted and quotes doubled). A leading UTF-8 BOM makes Excel read non-Latin text.
 */

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | undefined | null;
  /** Holds phone numbers: a lone number is written so spreadsheets keep it as text (`phoneField`). */
  phone?: true;
}

/**
 * Spreadsheet apps read "+15551234567" as the number 15551234567 (and "0044…" loses its zeros);
 * `="+15551234567"` is a formula whose result is that exact text. Only a bare number is written
 * so: nothing else can end up inside the formula.
 */
export function phoneField(value: string): string {
  return /^\+?\d+$/.test(value) ? csvQuoted(`="${value}"`) : csvField(value);
}

function csvQuoted(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * Where a sheet may start a cell inside our text: its start, and after every separator the
 * import accepts, since a spreadsheet opening the file may split on any of them (Excel splits on
 * `;` in locales whose decimal mark is a comma). Followed, after spaces a sheet may trim, by a
 * character that makes a spreadsheet run the cell as a formula (OWASP "CSV Injection").
 */
const formulaCellStart = new RegExp(`(?<=^|[${csvSeparators.join('')}])(?= *[=+\\-@\\t\\r])`, 'g');

/**
 * SMS text comes from strangers, so every cell a sheet could cut from it that would start a
 * formula gets an apostrophe in front, not only the first: `hi;=1+1` split on `;` is a cell
 * `=1+1`. A whole text that is a phone number or plain number ("+15551234567", "-3") is left
 * alone: it cannot form a formula.
 */
export function neutralizeFormula(text: string): string {
  if (/^[+-]?\d[\d\s().]*$/.test(text)) return text;
  return text.replace(formulaCellStart, "'");
}

export function csvField(value: string | number | boolean | undefined | null): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? neutralizeFormula(value) : String(value);
  return /[",\r\n]/.test(text) ? csvQuoted(text) : text;
}

export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((column) => csvField(column.header)).join(',')];
  for (const row of rows) {
    lines.push(
      columns
        .map((column) => {
          const value = column.value(row);
          return column.phone && typeof value === 'string' ? phoneField(value) : csvField(value);
        })
        .join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

export interface Page<Item> {
  items: Item[];
  /** X-Total-Count, when the server sent it. */
  total?: number;
}

/** Reads every page of a list endpoint (limit/offset), for exports of the whole filter; pages as large as the API allows. */
export async function fetchAllPages<Item>(
  fetchPage: (limit: number, offset: number) => Promise<Page<Item>>,
  pageSize = MaxPageSize,
  maxItems = 100_000,
): Promise<Item[]> {
  const all: Item[] = [];
  for (;;) {
    const page = await fetchPage(pageSize, all.length);
    all.push(...page.items);
    const reachedTotal = page.total !== undefined && all.length >= page.total;
    if (page.items.length < pageSize || reachedTotal || all.length >= maxItems) return all;
  }
}
