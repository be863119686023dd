import { foldText } from '../../contract/domain/textFold.js';

/** One SQL WHERE clause built from the filters a query actually has, with named parameters. */
export class QueryFilter {
  protected readonly clauses: string[] = [];
  readonly params: Record<string, string | number | bigint> = {};

  /** Adds `clause` (using `@name`) when `value` is defined. */
  when(name: string, value: string | number | undefined, clause: string): this {
    if (value === undefined) return this;
    this.clauses.push(clause);
    this.params[name] = value;
    return this;
  }

  /** Adds `clause`, which has no parameter, when `applies`. */
  provided(applies: boolean, clause: string): this {
    if (applies) this.clauses.push(clause);
    return this;
  }

  get where(): string {
    return whereOf(this.clauses);
  }
}

/** `WHERE` and the clauses joined by AND; nothing for none. */
export function whereOf(clauses: readonly string[]): string {
  return clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`;
}

/** The trimmed needle of a `search` query parameter, folded as `search` columns are; undefined when blank. */
export function normaliseNeedle(search: string | undefined): string | undefined {
  return foldText(search?.trim() ?? '') || undefined;
}

/** SQLite takes LIMIT -1 for "no limit"; callers ask for "everything" with huge numbers. */
export function sqlLimit(limit: number): number {
  return limit >= 2 ** 31 ? -1 : limit;
}
