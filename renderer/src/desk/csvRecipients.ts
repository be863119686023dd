import { parseCsvTable } from '../../../server/contract/domain/csvTable.js';
import type { CampaignRequest } from './deskTypes.js';

export interface CsvRecipients {
  fileName: string;
  columns: string[];
  rows: string[][];
  phoneColumn: string;
}

const phoneHeader = /phone|mobile|number|tel|handy|cell|nummer/i;

/** An uploaded CSV for a bulk send: its columns become the placeholders (`{order}`). */
export function readCsvRecipients(fileName: string, text: string): CsvRecipients {
  const table = parseCsvTable(text);
  const phoneColumn = table.columns.find((column) => phoneHeader.test(column)) ?? table.columns[0] ?? '';
  return { fileName, columns: table.columns, rows: table.rows, phoneColumn };
}

/** The rows as the campaign API takes them: the number, and every other cell by its header. */
export function campaignRows(csv: CsvRecipients): NonNullable<CampaignRequest['recipients']['rows']> {
  const phoneIndex = csv.columns.indexOf(csv.phoneColumn);
  return csv.rows.map((row) => ({
    phoneNumber: row[phoneIndex] ?? '',
    fields: Object.fromEntries(
      csv.columns.flatMap((column, index) => (index === phoneIndex ? [] : [[column, row[index] ?? '']])),
    ),
  }));
}
