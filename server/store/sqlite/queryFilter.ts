/** One SQL WHERE clause built from the filters a query actually has, with named parameters. */
export class QueryFilter {
  private readonly clauses: string[] = [];
  readonly params: Record<string, string | number> = {};

  /** Adds `clause` (using `@name`) when `value` is defined. */
  when(name: string, value: string | number | undefined, clause: string): this {
    if (value === undefined) return this;
    this.clauses.push(clause);
    this.params[name] = value;
    return this;
  }

  get where(): string {
    return this.clauses.length === 0 ? '' : `WHERE ${this.clauses.join(' AND ')}`;
  }
}

/**
 * A substring search: through the trigram index when the needle has the three characters a
 * trigram needs, else (one or two characters) a scan with instr. Needles are lowercased, as the
 * indexed text is.
 */
export function searchClause(table: string, needle: string): string {
  return needle.length >= 3
    ? `rowid IN (SELECT rowid FROM ${table}_search WHERE ${table}_search MATCH @search)`
    : 'instr(search, @search) > 0';
}

/** The needle as the clause above wants it: an FTS5 phrase, or the plain lowercased text. */
export function searchParameter(needle: string): string {
  return needle.length >= 3 ? `"${needle.replaceAll('"', '""')}"` : needle;
}

/** The trimmed, lowercased needle of a `search` query parameter; undefined when blank. */
export function normaliseNeedle(search: string | undefined): string | undefined {
  return search?.trim().toLowerCase() || undefined;
}

/** SQLite takes LIMIT -1 for "no limit"; callers ask for "everything" with huge numbers. */
export function sqlLimit(limit: number): number {
  return limit >= 2 ** 31 ? -1 : limit;
}
