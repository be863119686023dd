import { normalisePhoneNumber } from '../../../server/desk/phoneNumbers.js';

/** The numbers of a recipients box as typed: separated by commas, semicolons or new lines. */
export function splitTypedNumbers(input: string): string[] {
  return input
    .split(/[\n,;]+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
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
