import { createContext, runInContext } from 'node:vm';
import type { RuleInput } from '../../validation/deskSchemas.js';

/**
 * Longest a rule's regular expression may run on one text. Rules are written by users and an
 * incoming text is written by anyone: a pattern like `(a+)+$` backtracks for hours on the right
 * input, and RE2 needs a native build. The expression runs in a `node:vm` context whose timeout
 * interrupts it; a timeout counts as no match.
 */
export const regexTimeLimitMs = 50;

export type MatchOutcome = { matched: boolean; timedOut?: true };

/** One context for every evaluation: creating one costs far more than a run. */
const sandbox = createContext({ pattern: '', text: '' });

export function matchText(match: RuleInput['match'], text: string): MatchOutcome {
  const subject = text.trim();
  switch (match.kind) {
    case 'any':
      return { matched: true };
    case 'startsWith':
      return { matched: startsWithWord(subject, match.pattern.trim()) };
    case 'contains':
      return { matched: subject.toLocaleLowerCase().includes(match.pattern.trim().toLocaleLowerCase()) };
    case 'regex':
      return matchRegex(match.pattern, subject);
  }
}

/** "PRICE" matches "price list please" and "Price", not "priceless". */
function startsWithWord(subject: string, keyword: string): boolean {
  const head = subject.slice(0, keyword.length);
  if (head.toLocaleLowerCase() !== keyword.toLocaleLowerCase()) return false;
  const next = subject.charAt(keyword.length);
  return next === '' || !/[\p{L}\p{N}]/u.test(next);
}

function matchRegex(pattern: string, text: string): MatchOutcome {
  sandbox.pattern = pattern;
  sandbox.text = text;
  try {
    return {
      matched:
        runInContext("new RegExp(pattern, 'iu').test(text)", sandbox, { timeout: regexTimeLimitMs }) === true,
    };
  } catch {
    return { matched: false, timedOut: true };
  } finally {
    sandbox.text = '';
  }
}
