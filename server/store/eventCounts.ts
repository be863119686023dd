import type { Database, Statement } from './sqlite/sqlite.js';

export type CountedEvent = 'sent' | 'delivered' | 'failed' | 'received';

/**
 * How many messages first reached Sent or Delivered, had their first recipient fail, or
 * arrived, in one quarter hour.
 */
export interface EventCount {
  /** Start of the quarter hour, ms since epoch. */
  at: number;
  event: CountedEvent;
  count: number;
}

export interface EventCounts {
  /** Every count from the quarter hour holding `from` on. */
  since(from: number): EventCount[];
}

/** The counts the schema's triggers keep in `event_counts` (see `sqlite/schema.ts`). */
export class SqliteEventCounts implements EventCounts {
  private readonly select: Statement<[number], EventCount>;

  constructor(db: Database) {
    this.select = db.prepare(
      'SELECT bucket AS at, event, count FROM event_counts WHERE bucket >= ? ORDER BY bucket',
    );
  }

  since(from: number): EventCount[] {
    return this.select.all(from - (from % quarterHourMs));
  }
}

const quarterHourMs = 15 * 60_000;
