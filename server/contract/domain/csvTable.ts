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

/** Fresh for each parse: papaparse keeps the delimiter it guessed in the options it is given. */
function parseOptions(): Papa.ParseConfig<string[]> {
  return { skipEmptyLines: 'greedy', delimitersToGuess: [...csvSeparators] };
}

/** Text parsed between two turns in `parseCsvTableInTurns`: a few milliseconds of papaparse. */
const bytesPerTurn = 64 * 1024;

export function parseCsvTable(text: string): CsvTable {
  const table = new TableBuilder();
  table.add(Papa.parse<string[]>(withoutBom(text), parseOptions()).data);
  return table.built();
}

/**
 * The same table, parsed `bytesPerTurn` at a time with `betweenChunks` awaited after each: a
 * 50,000-row file on the gateway does not hold its event loop for the whole parse.
 */
export function parseCsvTableInTurns(text: string, betweenChunks: () => Promise<void>): Promise<CsvTable> {
  return new Promise((resolve, reject) => {
    const table = new TableBuilder();
    Papa.parse<string[]>(withoutBom(text), {
      ...parseOptions(),
      chunkSize: bytesPerTurn,
      chunk: (results: Papa.ParseResult<string[]>, parser: Papa.Parser) => {
        table.add(results.data);
        parser.pause();
        betweenChunks().then(() => parser.resume(), reject);
      },
      complete: () => resolve(table.built()),
    });
  });
}

function withoutBom(text: string): string {
  return text.replace(/^\uFEFF/, '');
}

/** The first row read is the header; every later one is padded or cut to its width. */
class TableBuilder {
  private columns: string[] | undefined;
  private readonly rows: string[][] = [];

  add(data: readonly string[][]): void {
    for (const row of data) {
      if (this.columns === undefined) {
        this.columns = row.map((cell, index) => cell.trim() || `column ${index + 1}`);
      } else {
        this.rows.push(this.columns.map((_column, index) => cellText(row[index] ?? '')));
      }
    }
  }

  built(): CsvTable {
    return { columns: this.columns ?? [], rows: this.rows };
  }
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
