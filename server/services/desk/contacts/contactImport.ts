import type { z } from 'zod';
import { parseCsvTableInTurns } from '../../../contract/domain/csvTable.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import { chunksInTurns, nextTurn, rowPacer } from '../bulkPacing.js';
import type { NumberReader } from '../numberReader.js';
import { contactFields, groupName } from './contactFields.js';
import type { ContactRepository } from './contactRepository.js';
import type { GroupRepository } from './groupRepository.js';

/** Which CSV column holds each contact field (by header name); only the number is required. */
export interface ImportMapping {
  phoneNumber: string;
  name?: string;
  notes?: string;
  /** Group names separated by `,` or `;` (groups that do not exist yet are created). */
  groups?: string;
}

export interface ImportRowError {
  /** 1-based line of the data row in the file, the header being line 1. */
  line: number;
  field: string;
  message: string;
}

export interface ImportedContact {
  line: number;
  phoneNumber: string;
  name: string;
  notes: string;
  groups: string[];
  /** Already in the address book: the row updates that contact. */
  existing: boolean;
}

export interface ImportReport {
  columns: string[];
  rows: number;
  /** Contacts after merging rows with the same number. */
  contacts: ImportedContact[];
  /** Rows merged into an earlier row with the same number. */
  duplicates: number;
  /** The first `ImportErrorsListed` row errors: a report stays small however many rows are wrong. */
  errors: ImportRowError[];
  /** Every row error, listed or not. */
  errorCount: number;
  /** Set when the import was carried out (`commit`, and no errors or skipping the rows with them). */
  imported?: { created: number; updated: number };
}

export interface ImportChoice {
  /** Store the contacts; false: only the report. */
  commit: boolean;
  /** Store the rows without errors even when others have some (a wrong column still stops it). */
  skipRowsWithErrors: boolean;
}

/**
 * Most rows a file may hold after its header: as many as a campaign takes recipients. Counted
 * as line breaks before the file is parsed, so an oversized file costs a scan, never a table of
 * a million rows; a cell holding line breaks counts each of them.
 */
export const MaxImportRows = 50_000;
/** Row errors a report lists; `errorCount` counts them all. */
export const ImportErrorsListed = 100;

const groupSeparator = /[,;]/;

/**
 * Reads a CSV with a column mapping into contacts, merging rows by number (a later row fills in
 * what an earlier one left empty and adds its groups). Each cell is checked as the API checks
 * the same field (contactFields.ts). With `commit`, when no row has an error or the rows with
 * errors are to be skipped, stores the others `rowsPerTurn` contacts per commit, so the gateway keeps answering during a large import;
 * an import cut short by a crash is completed by running it again, as rows merge by number.
 */
export class ContactImport {
  constructor(
    private readonly deps: { contacts: ContactRepository; groups: GroupRepository; readNumber: NumberReader },
  ) {}

  async run(csv: string, mapping: ImportMapping, choice: ImportChoice): Promise<ImportReport> {
    const report = await this.plan(csv, mapping);
    const blocked = report.errorCount > 0 && !choice.skipRowsWithErrors;
    if (!choice.commit || blocked || report.contacts.length === 0) return report;
    const imported = { created: 0, updated: 0 };
    for await (const chunk of chunksInTurns(report.contacts)) {
      const written = await this.deps.contacts.upsertMany(() => {
        const groupIds = new Map<string, string>();
        for (const name of new Set(chunk.flatMap((contact) => contact.groups))) {
          groupIds.set(name.toLowerCase(), this.deps.groups.idForName(name));
        }
        return chunk.map((contact) => ({
          phoneNumber: contact.phoneNumber,
          name: contact.name,
          notes: contact.notes,
          groupIds: contact.groups.flatMap((name) => groupIds.get(name.toLowerCase()) ?? []),
        }));
      });
      imported.created += written.created;
      imported.updated += written.updated;
    }
    return { ...report, imported };
  }

  private async plan(csv: string, mapping: ImportMapping): Promise<ImportReport> {
    if (hasMoreLines(csv, MaxImportRows + 1)) {
      throw new GatewayError(
        ErrorCode.PayloadTooLarge,
        `csv: the file has more than ${MaxImportRows} rows after its header, the most one import takes; split it`,
        { field: 'csv' },
      );
    }
    const table = await parseCsvTableInTurns(csv, nextTurn);
    const errors = new RowErrors();
    const indexOf = (field: keyof ImportMapping): number | undefined => {
      const column = mapping[field];
      if (column === undefined || column === '') return undefined;
      const index = table.columns.indexOf(column);
      if (index < 0) errors.add(1, `mapping.${field}`, `the file has no column ${JSON.stringify(column)}`);
      return index < 0 ? undefined : index;
    };
    const columns = {
      phoneNumber: indexOf('phoneNumber'),
      name: indexOf('name'),
      notes: indexOf('notes'),
      groups: indexOf('groups'),
    };
    const report = (contacts: ImportedContact[], duplicates: number): ImportReport => ({
      columns: table.columns,
      rows: table.rows.length,
      contacts,
      duplicates,
      errors: errors.listed,
      errorCount: errors.count,
    });
    if (errors.count > 0) return report([], 0);

    const byNumber = new Map<string, ImportedContact>();
    let duplicates = 0;
    const pace = rowPacer();
    for (const [index, row] of table.rows.entries()) {
      await pace();
      const line = index + 2;
      const cell = (column: number | undefined) => (column === undefined ? '' : (row[column] ?? ''));
      const phoneNumber = this.readNumber(cell(columns.phoneNumber), line, errors);
      const name = cell(columns.name);
      const notes = cell(columns.notes);
      const groups = cell(columns.groups)
        .split(groupSeparator)
        .map((group) => group.trim())
        .filter((group) => group !== '');
      // An empty name keeps an existing contact's name, or becomes the number (below).
      const wrong = [
        name !== '' && errors.check(line, 'name', contactFields.name, name),
        errors.check(line, 'notes', contactFields.notes, notes),
        groups.some((group) => errors.check(line, 'groups', groupName, group)),
      ].some(Boolean);
      if (phoneNumber === undefined || wrong) continue;
      const earlier = byNumber.get(phoneNumber);
      if (earlier) {
        duplicates++;
        earlier.name = name || earlier.name;
        earlier.notes = notes || earlier.notes;
        earlier.groups = [...new Set([...earlier.groups, ...groups])];
        continue;
      }
      byNumber.set(phoneNumber, {
        line,
        phoneNumber,
        name,
        notes,
        groups,
        existing: this.deps.contacts.findByNumber(phoneNumber) !== undefined,
      });
    }
    // Merged rows may name more groups than a contact takes: such a contact is a row error too.
    const contacts = [...byNumber.values()].filter(
      (contact) => !errors.check(contact.line, 'groups', contactFields.groupIds, contact.groups),
    );
    for (const contact of contacts) {
      if (contact.name === '' && !contact.existing) contact.name = contact.phoneNumber;
    }
    return report(contacts, duplicates);
  }

  /** The cell as E.164, or undefined with the row's error recorded. */
  private readNumber(typed: string, line: number, errors: RowErrors): string | undefined {
    if (errors.check(line, 'phoneNumber', contactFields.phoneNumber, typed)) return undefined;
    try {
      return this.deps.readNumber(typed, 'phoneNumber');
    } catch (error) {
      errors.add(line, 'phoneNumber', (error as Error).message.replace(/^phoneNumber: /, ''));
      return undefined;
    }
  }
}

/** Whether the text has more than `lines` lines; stops counting there. */
function hasMoreLines(text: string, lines: number): boolean {
  const lineBreak = /\r\n|\r|\n/g;
  let breaks = 0;
  while (lineBreak.exec(text) !== null) {
    breaks++;
    // The last line needs no break after it: `lines` breaks and more text make one line more.
    if (breaks > lines || (breaks === lines && lineBreak.lastIndex < text.length)) return true;
  }
  return false;
}

/** Counts every row error and keeps the first `ImportErrorsListed`. */
class RowErrors {
  readonly listed: ImportRowError[] = [];
  count = 0;

  add(line: number, field: string, message: string): void {
    this.count++;
    if (this.listed.length < ImportErrorsListed) this.listed.push({ line, field, message });
  }

  /** Checks `value` as the API checks `field`; true (and the error recorded) when it fails. */
  check(line: number, field: string, schema: z.ZodType, value: unknown): boolean {
    const result = schema.safeParse(value);
    if (result.success) return false;
    this.add(line, field, result.error.issues[0]?.message ?? 'is not valid');
    return true;
  }
}
