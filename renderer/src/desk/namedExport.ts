import type { CsvColumn, Page } from '../format/csv.js';

/**
 * An export with the address book's names beside the numbers: each fetched page's numbers are
 * looked up as it arrives, and the added column reads the names gathered so far (the CSV is
 * written once every page is in). A failed lookup (a token without contacts:read) leaves it empty.
 */
export function namedExport<Row>(options: {
  columns: readonly CsvColumn<Row>[];
  header: string;
  numbersOf: (row: Row) => readonly string[];
  fetchPage: (limit: number, offset: number) => Promise<Page<Row>>;
  lookup: (phoneNumbers: string[]) => Promise<Record<string, string>>;
}): { columns: CsvColumn<Row>[]; fetchPage: (limit: number, offset: number) => Promise<Page<Row>> } {
  const names = new Map<string, string>();
  return {
    columns: [
      ...options.columns,
      {
        header: options.header,
        value: (row) =>
          options
            .numbersOf(row)
            .map((number) => names.get(number) ?? '')
            .join(' / '),
      },
    ],
    fetchPage: async (limit, offset) => {
      const page = await options.fetchPage(limit, offset);
      const numbers = [...new Set(page.items.flatMap((row) => options.numbersOf(row)))];
      const found = numbers.length === 0 ? {} : await options.lookup(numbers).catch(() => ({}));
      for (const [number, name] of Object.entries(found)) names.set(number, name);
      return page;
    },
  };
}
