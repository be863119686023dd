import { normalisePhoneNumber } from '../../../server/contract/domain/phoneNumbers.js';

/** The numbers of a recipients box as typed: separated by commas, semicolons, tabs or new lines. */
function splitTypedNumbers(input: string): string[] {
  return input
    .split(/[\n\t,;]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** A recipient pasted from a spreadsheet with its name: `{name}` is filled from it. */
interface NamedRecipient {
  phoneNumber: string;
  fields: { name: string };
}

/** The recipients box read: plain numbers, and the named ones with the box line they came from. */
export interface TypedRecipients {
  phoneNumbers: string[];
  named: { line: number; recipient: NamedRecipient }[];
}

/**
 * A recipients box, where lines pasted from a spreadsheet ("Anna Schmidt<TAB>0170 1234567", the
 * columns in any order) keep their names: on such a line the cells of dialling characters are
 * the numbers and the other cells the name. A row whose number cell holds no number at all
 * ("Bad row<TAB>n/a") is one recipient whose last cell is its number, so its problem names its
 * line once. A line of one cell, or of number cells only, is numbers as typed
 * (`splitTypedNumbers`).
 */
export function splitTypedRecipients(input: string): TypedRecipients {
  const read: TypedRecipients = { phoneNumbers: [], named: [] };
  input.split('\n').forEach((line, index) => {
    const cells = line
      .split('\t')
      .map((cell) => cell.trim())
      .filter((cell) => cell !== '');
    const dialled = cells.filter(isDialled);
    const numbers = dialled.length > 0 ? dialled : cells.slice(-1);
    const name = cells.filter((cell) => !numbers.includes(cell)).join(' ');
    if (cells.length < 2 || name === '') {
      read.phoneNumbers.push(...splitTypedNumbers(line));
      return;
    }
    for (const phoneNumber of numbers)
      read.named.push({ line: index + 1, recipient: { phoneNumber, fields: { name } } });
  });
  return read;
}

function isDialled(cell: string): boolean {
  return dialledSearch.test(cell) && /\d/.test(cell);
}

/**
 * A recipients box read with the default country: the distinct E.164 numbers, and one friendly
 * sentence per number that cannot be read (“12 is too short for a number in DE”).
 */
export function readTypedNumbers(
  input: string,
  defaultCountry: string | undefined,
): { numbers: string[]; problems: string[] } {
  const numbers = new Set<string>();
  const problems: string[] = [];
  for (const typed of splitTypedNumbers(input)) {
    const result = normalisePhoneNumber(typed, defaultCountry);
    if (result.ok) numbers.add(result.e164);
    else problems.push(result.message);
  }
  return { numbers: [...numbers], problems };
}

/** A search that is all dialling characters ("(0160) 111-1111", "+49 160"): a number being typed. */
const dialledSearch = /^\+?[\d\s().\-/]+$/;

/**
 * What a search box looks for, numbers read as people type them: what the default country can
 * read becomes its E.164 form, as numbers are stored (a short one, "0160 11" → "+4916011", is
 * the start of the longer numbers it begins); what it cannot, its digits without the trunk 0
 * ("017" → "17"), which every stored form of such a number contains. Other text goes as typed.
 */
export function searchNeedle(typed: string, defaultCountry: string | undefined): string {
  const trimmed = typed.trim();
  if (!dialledSearch.test(trimmed) || !/\d/.test(trimmed)) return trimmed;
  const read = normalisePhoneNumber(trimmed, defaultCountry);
  if (read.ok) return read.e164;
  return trimmed.replace(/\D/g, '').replace(/^0+/, '');
}
