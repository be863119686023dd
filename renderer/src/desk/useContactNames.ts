import { useApp } from '../appContext.js';
import { useNumberLookup } from './useNumberLookup.js';

const noNames: Record<string, string> = {};

/**
 * The one lookup every screen uses to put a name beside a number: the address book's names of
 * the numbers on screen (numbers not in it map to nothing). Asks again when the set changes.
 */
export function useContactNames(
  phoneNumbers: readonly string[],
): (phoneNumber: string) => string | undefined {
  const { api } = useApp();
  const names = useNumberLookup(phoneNumbers, api.contactNames, noNames);
  return (phoneNumber) => names[phoneNumber];
}

/** "Anna Berg (+491711234567)", or the number alone when it has no contact. */
export function withName(phoneNumber: string, name: string | undefined): string {
  return name ? `${name} (${phoneNumber})` : phoneNumber;
}

const noNumbers: string[] = [];

/** The numbers on screen that are on the opt-out list: a send to them ends Failed. */
export function useOptedOut(phoneNumbers: readonly string[]): readonly string[] {
  const { api } = useApp();
  return useNumberLookup(phoneNumbers, api.optedOut, noNumbers);
}
