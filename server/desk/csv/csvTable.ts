import Papa from 'papaparse';

/**
 * A CSV file as a table: UTF-8 with or without Excel's BOM, `,` or `;` (Excel in locales whose
 * decimal mark is a comma) or tab separators, quoted fields with separators, quotes and line
 * breaks inside. Parsed by papaparse; pure, so the UI reads uploads with the same rules.
 */
export interface CsvTable {
  /** The header row, trimmed; a blank header becomes `column N`. */
  columns: string[];
  /** The data rows, each as long as `columns` (short rows padded with empty cells). */
  rows: string[][];
}

/** The separators a file may use; exports defuse formulas behind each of them (format/csv.ts). */
export const csvSeparators: readonly string[] = [',', ';', '\t'];

export function parseCsvTable(text: string): CsvTable {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: 'greedy',
    delimitersToGuess: [...csvSeparators],
  });
  const [header = [], ...body] = parsed.data;
  const columns = header.map((cell, index) => cell.trim() || `column ${index + 1}`);
  const rows = body.map((row) => columns.map((_column, index) => cellText(row[index] ?? '')));
  return { columns, rows };
}

/**
 * A cell as typed, without what spreadsheets need around it: surrounding spaces, and the
 * `="…"` wrapper or leading apostrophe our own exports put on numbers so Excel keeps them text.
 */
export function cellText(cell: string): string {
  const trimmed = cell.trim();
  const formula = /^="(.*)"$/.exec(trimmed);
  if (formula) return (formula[1] ?? '').replaceAll('""', '"');
  return trimmed.startsWith("'") ? trimmed.slice(1) : trimmed;
}
