import type { AuditEventView } from '../api/types.js';
import type { CsvColumn, Page } from '../format/csv.js';

/** The audit trail as a CSV: one row per change, who made it and what it changed. */
export const auditCsvColumns: readonly CsvColumn<AuditEventView>[] = [
  { header: 'at', value: (row) => row.at },
  { header: 'by', value: (row) => row.actorName },
  { header: 'action', value: (row) => row.action },
  { header: 'summary', value: (row) => row.summary },
  { header: 'subject', value: (row) => row.subject },
  { header: 'fields', value: (row) => row.fields.join(' ') },
];

/**
 * An export with a column naming who first acted on each row's id (who sent the message):
 * each fetched page's ids are looked up as it arrives. A failed lookup (a token without
 * audit:read) leaves the column empty.
 */
export function withActorColumn<Row>(options: {
  columns: readonly CsvColumn<Row>[];
  header: string;
  idOf: (row: Row) => string;
  fetchPage: (limit: number, offset: number) => Promise<Page<Row>>;
  lookup: (ids: string[]) => Promise<Record<string, string>>;
}): { columns: CsvColumn<Row>[]; fetchPage: (limit: number, offset: number) => Promise<Page<Row>> } {
  const actors = new Map<string, string>();
  return {
    columns: [
      ...options.columns,
      { header: options.header, value: (row) => actors.get(options.idOf(row)) ?? '' },
    ],
    fetchPage: async (limit, offset) => {
      const page = await options.fetchPage(limit, offset);
      const ids = page.items.map(options.idOf);
      const found = ids.length === 0 ? {} : await options.lookup(ids).catch(() => ({}));
      for (const [id, name] of Object.entries(found)) actors.set(id, name);
      return page;
    },
  };
}
