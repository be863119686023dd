import type { CsvColumn } from '../format/csv.js';
import type { Contact, Group, ImportMapping } from './deskTypes.js';

/**
 * Contacts as CSV. Numbers go out as `="+49…"`, which Excel and LibreOffice show as the text it
 * is: a bare +491711234567 would become 4.91711E+11 and lose its +. The import reads it back.
 */
export function contactCsvColumns(groups: readonly Group[]): CsvColumn<Contact>[] {
  const groupName = new Map(groups.map((group) => [group.id, group.name]));
  return [
    { header: 'Name', value: (contact) => contact.name },
    { header: 'Phone number', value: (contact) => contact.phoneNumber, phone: true },
    {
      header: 'Groups',
      value: (contact) => contact.groupIds.map((id) => groupName.get(id) ?? id).join(', '),
    },
    { header: 'Notes', value: (contact) => contact.notes },
  ];
}

const guesses: Record<keyof ImportMapping, RegExp> = {
  phoneNumber: /phone|mobile|number|tel|handy|cell|nummer|numéro/i,
  name: /name/i,
  notes: /note|comment|remark/i,
  groups: /group|tag|list/i,
};

/** A first mapping from the header names, for the user to correct. */
export function guessMapping(columns: readonly string[]): ImportMapping {
  const find = (field: keyof ImportMapping) => columns.find((column) => guesses[field].test(column));
  const phoneNumber = find('phoneNumber') ?? columns[0] ?? '';
  const pick = (field: keyof ImportMapping) => {
    const column = find(field);
    return column === phoneNumber ? undefined : column;
  };
  return { phoneNumber, name: pick('name'), notes: pick('notes'), groups: pick('groups') };
}
