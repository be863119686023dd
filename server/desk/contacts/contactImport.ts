import { parseCsvTable } from '../csv/csvTable.js';
import type { NumberReader } from '../numberReader.js';
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
  errors: ImportRowError[];
  /** Set when the import was carried out (no errors and `commit`). */
  imported?: { created: number; updated: number };
}

const groupSeparator = /[,;]/;

/**
 * Reads a CSV with a column mapping into contacts, merging rows by number (a later row fills in
 * what an earlier one left empty and adds its groups). With `commit`, stores them all in one
 * transaction — and only when no row has an error: never half an import.
 */
export class ContactImport {
  constructor(
    private readonly deps: { contacts: ContactRepository; groups: GroupRepository; readNumber: NumberReader },
  ) {}

  async run(csv: string, mapping: ImportMapping, commit: boolean): Promise<ImportReport> {
    const report = this.plan(csv, mapping);
    if (!commit || report.errors.length > 0 || report.contacts.length === 0) return report;
    const imported = await this.deps.contacts.upsertMany(() => {
      const groupIds = new Map<string, string>();
      for (const name of new Set(report.contacts.flatMap((contact) => contact.groups))) {
        groupIds.set(name.toLowerCase(), this.deps.groups.idForName(name));
      }
      return report.contacts.map((contact) => ({
        phoneNumber: contact.phoneNumber,
        name: contact.name,
        notes: contact.notes,
        groupIds: contact.groups.flatMap((name) => groupIds.get(name.toLowerCase()) ?? []),
      }));
    });
    return { ...report, imported };
  }

  private plan(csv: string, mapping: ImportMapping): ImportReport {
    const table = parseCsvTable(csv);
    const errors: ImportRowError[] = [];
    const indexOf = (field: keyof ImportMapping): number | undefined => {
      const column = mapping[field];
      if (column === undefined || column === '') return undefined;
      const index = table.columns.indexOf(column);
      if (index < 0)
        errors.push({
          line: 1,
          field: `mapping.${field}`,
          message: `the file has no column ${JSON.stringify(column)}`,
        });
      return index < 0 ? undefined : index;
    };
    const columns = {
      phoneNumber: indexOf('phoneNumber'),
      name: indexOf('name'),
      notes: indexOf('notes'),
      groups: indexOf('groups'),
    };
    if (errors.length > 0)
      return { columns: table.columns, rows: table.rows.length, contacts: [], duplicates: 0, errors };

    const byNumber = new Map<string, ImportedContact>();
    let duplicates = 0;
    for (const [index, row] of table.rows.entries()) {
      const line = index + 2;
      const cell = (column: number | undefined) => (column === undefined ? '' : (row[column] ?? ''));
      let phoneNumber: string;
      try {
        phoneNumber = this.deps.readNumber(cell(columns.phoneNumber), 'phoneNumber');
      } catch (error) {
        errors.push({
          line,
          field: 'phoneNumber',
          message: (error as Error).message.replace(/^phoneNumber: /, ''),
        });
        continue;
      }
      const groups = cell(columns.groups)
        .split(groupSeparator)
        .map((name) => name.trim())
        .filter((name) => name !== '');
      const earlier = byNumber.get(phoneNumber);
      if (earlier) {
        duplicates++;
        earlier.name = cell(columns.name) || earlier.name;
        earlier.notes = cell(columns.notes) || earlier.notes;
        earlier.groups = [...new Set([...earlier.groups, ...groups])];
        continue;
      }
      byNumber.set(phoneNumber, {
        line,
        phoneNumber,
        name: cell(columns.name),
        notes: cell(columns.notes),
        groups,
        existing: this.deps.contacts.findByNumber(phoneNumber) !== undefined,
      });
    }
    const contacts = [...byNumber.values()];
    for (const contact of contacts) {
      if (contact.name === '' && !contact.existing) contact.name = contact.phoneNumber;
    }
    return { columns: table.columns, rows: table.rows.length, contacts, duplicates, errors };
  }
}
