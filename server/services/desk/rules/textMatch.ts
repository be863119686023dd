import type { RuleInput } from '../../../contract/schemas/deskSchemas.js';

/** The kinds of match decided here, at once; a regular expression runs on the pattern thread. */
export type PlainMatch = RuleInput['match'] & { kind: 'any' | 'startsWith' | 'contains' };

/** The flags a rule's regular expression runs with: any case, and characters beyond the BMP as one. */
export const ruleRegexFlags = 'iu';

export function matchText(match: PlainMatch, text: string): boolean {
  const subject = text.trim();
  switch (match.kind) {
    case 'any':
      return true;
    case 'startsWith':
      return startsWithWord(subject, match.pattern.trim());
    case 'contains':
      return subject.toLocaleLowerCase().includes(match.pattern.trim().toLocaleLowerCase());
  }
}

/** "PRICE" matches "price list please" and "Price", not "priceless". */
function startsWithWord(subject: string, keyword: string): boolean {
  const head = subject.slice(0, keyword.length);
  if (head.toLocaleLowerCase() !== keyword.toLocaleLowerCase()) return false;
  const next = subject.charAt(keyword.length);
  return next === '' || !/[\p{L}\p{N}]/u.test(next);
}
