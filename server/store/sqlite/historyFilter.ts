import { QueryFilter, whereOf } from './queryFilter.js';
import { type SearchedTable, type SearchPlan, searchedOrder, searchPlan } from './searchIndex.js';

export type IndexedSearch = Extract<SearchPlan, { kind: 'index' }>;

/**
 * The filter of a page of stored messages or received ones: a period of their time column,
 * other clauses on their columns, and a search. A search with an index (searchIndex.ts) is paged
 * from it by `pagedRecords`: the period bounds the index's rowids, and only the other clauses
 * need the rows.
 */
export class HistoryFilter extends QueryFilter {
  /** Set when the search is looked up in an index rather than in the rows. */
  indexedSearch: IndexedSearch | undefined;
  private readonly periodClauses: string[] = [];
  /** The period's bounds (ms): from (inclusive) and to (exclusive). */
  readonly bounds: { from?: number; to?: number } = {};

  constructor(readonly table: SearchedTable) {
    super();
  }

  /** Rows whose time is at or after `from` and before `to` (ms; either may be absent). */
  period(from: number | undefined, to: number | undefined): this {
    const column = searchedOrder[this.table].time;
    if (from !== undefined) {
      this.periodClauses.push(`${column} >= @from`);
      this.params.from = from;
      this.bounds.from = from;
    }
    if (to !== undefined) {
      this.periodClauses.push(`${column} < @to`);
      this.params.to = to;
      this.bounds.to = to;
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

  /** The clauses an index's matches still need their rows for (not the period: `bounds` has it). */
  get rowClauses(): readonly string[] {
    return this.clauses;
  }
}
