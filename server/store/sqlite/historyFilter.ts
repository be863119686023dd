import { QueryFilter, whereOf } from './queryFilter.js';
import {
  firstKeyAt,
  type SearchedTable,
  type SearchPlan,
  searchedTimeColumn,
  searchPlan,
} from './searchIndex.js';

export type IndexedSearch = Extract<SearchPlan, { kind: 'index' }>;

/**
 * The filter of a page of stored messages or received ones: a period of their time column,
 * other clauses on their columns, and a search. A search with an index (searchIndex.ts) is paged
 * from it by `pagedRecords`: the period becomes a range of the index's keys, and only the other
 * clauses need the rows.
 */
export class HistoryFilter extends QueryFilter {
  /** Set when the search is looked up in an index rather than in the rows. */
  indexedSearch: IndexedSearch | undefined;
  private readonly periodClauses: string[] = [];
  /** The period's bounds as index keys: from (inclusive) and to (exclusive). */
  readonly keyRange: { from?: bigint; to?: bigint } = {};

  constructor(readonly table: SearchedTable) {
    super();
  }

  /** Rows whose time is at or after `from` and before `to` (ms; either may be absent). */
  period(from: number | undefined, to: number | undefined): this {
    const column = searchedTimeColumn[this.table];
    if (from !== undefined) {
      this.periodClauses.push(`${column} >= @from`);
      this.params.from = from;
      this.keyRange.from = firstKeyAt(from);
    }
    if (to !== undefined) {
      this.periodClauses.push(`${column} < @to`);
      this.params.to = to;
      this.keyRange.to = firstKeyAt(to);
    }
    return this;
  }

  /** Rows whose `search` column holds `needle` (`normaliseNeedle`'s); none when undefined. */
  search(needle: string | undefined): this {
    if (needle === undefined) return this;
    const plan = searchPlan(needle);
    if (plan.kind === 'index') {
      this.indexedSearch = plan;
      this.params.probe = plan.probe;
    }
    // A scan checks every row; an index's partial probe, the rows it finds.
    if (plan.kind === 'scan' || plan.checkRows) {
      this.clauses.push('instr(search, @needle) > 0');
      this.params.needle = needle;
    }
    return this;
  }

  /** Every clause, for a page read from the table itself. */
  override get where(): string {
    return whereOf([...this.periodClauses, ...this.clauses]);
  }

  /** The clauses an index's matches still need their rows for (no period: the keys have it). */
  get rowClauses(): readonly string[] {
    return this.clauses;
  }
}
