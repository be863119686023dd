/** One SQL WHERE clause built from the filters a query actually has, with named parameters. */
export class QueryFilter {
  private readonly clauses: string[] = [];
  readonly params: Record<string, string | number> = {};
  /** True once a search term is part of the filter: its matches come in rowid order, unsorted. */
  searching = false;

  /** Adds `clause` (using `@name`) when `value` is defined. */
  when(name: string, value: string | number | undefined, clause: string): this {
    if (value === undefined) return this;
    this.clauses.push(clause);
    this.params[name] = value;
    return this;
  }

  /**
   * A case-insensitive substring search of the row's `search` column (lowercased when
   * written) for `needle` (`normaliseNeedle`): through the table's trigram index once the needle
   * has the three characters a trigram needs, else a scan with instr.
   */
  search(table: string, needle: string | undefined): this {
    if (needle === undefined) return this;
    this.searching = true;
    this.params.needle = needle;
    if (needle.length < 3) {
      this.clauses.push('instr(search, @needle) > 0');
      return this;
    }
    const probe = indexProbe(needle);
    this.params.probe = `"${probe.replaceAll('"', '""')}"`;
    this.clauses.push(
      `rowid IN (SELECT rowid FROM ${table}_search WHERE ${table}_search MATCH @probe)` +
        (probe === needle ? '' : ' AND instr(search, @needle) > 0'),
    );
    return this;
  }

  get where(): string {
    return this.clauses.length === 0 ? '' : `WHERE ${this.clauses.join(' AND ')}`;
  }
}

/**
 * What the trigram index is asked for. Phone numbers share their country and area prefix, whose
 * trigrams are in nearly every row: matching all of them reads posting lists as long as the
 * history (90 ms for one number at 1,000,000 stored), while their last five characters tell them
 * apart (1 ms). So a number is looked up by its end, and instr checks the whole of it on the few
 * rows found. Text is looked up whole: its words are rarer than its end.
 */
function indexProbe(needle: string): string {
  return /^\+?\d{6,}$/.test(needle) ? needle.slice(-5) : needle;
}

/** The trimmed, lowercased needle of a `search` query parameter; undefined when blank. */
export function normaliseNeedle(search: string | undefined): string | undefined {
  return search?.trim().toLowerCase() || undefined;
}

/** SQLite takes LIMIT -1 for "no limit"; callers ask for "everything" with huge numbers. */
export function sqlLimit(limit: number): number {
  return limit >= 2 ** 31 ? -1 : limit;
}
