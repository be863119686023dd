import type { LogContext, Logger, LogRecord } from '../logging/logger.js';
import type { LogQuery, LogRepository, StoredLogEntry } from './repositories.js';
import { chunkedDelete } from './sqlite/chunkedDelete.js';
import type { GroupCommit } from './sqlite/groupCommit.js';
import { QueryFilter, sqlLimit } from './sqlite/queryFilter.js';
import type { Database, Statement } from './sqlite/sqlite.js';
import { StatementCache } from './sqlite/statementCache.js';

export interface LogRepositoryOptions {
  logger: Logger;
  /**
   * Most entries kept, so a DEBUG level left on for months cannot fill the disk; past it the
   * oldest go, a tenth at a time. Age-based retention (`logs.lifetime_days`) is `pruneOlderThan`.
   */
  maxEntries?: number;
}

export const defaultMaxLogEntries = 1_000_000;

interface LogRow {
  id: number;
  created_at: number;
  priority: string;
  module: string;
  body: string;
}

/**
 * The store behind GET /logs. `append` never waits and never throws: the logger calls it from
 * every layer, and a full disk must not take the gateway down with it. Writes join the group
 * commit; a failure is reported once (through the logger, which may well land back here) until
 * a later write succeeds.
 */
export class SqliteLogRepository implements LogRepository {
  private lastId: number;
  private failing = false;
  private readonly maxEntries: number;
  private readonly queries: StatementCache;
  private readonly insertRow: Statement<LogRow>;
  private readonly trimRows: Statement<{ last: number }>;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
    private readonly options: LogRepositoryOptions,
  ) {
    this.queries = new StatementCache(db);
    this.maxEntries = options.maxEntries ?? defaultMaxLogEntries;
    this.insertRow = db.prepare(
      'INSERT INTO logs (id, created_at, priority, module, body) VALUES (@id, @created_at, @priority, @module, @body)',
    );
    this.trimRows = db.prepare('DELETE FROM logs WHERE id <= @last');
    this.lastId = this.storedLastId();
    // Ids handed out in a batch that was rolled back were never stored: reuse them.
    commits.onRollback(() => {
      this.lastId = this.storedLastId();
    });
  }

  append(record: LogRecord): StoredLogEntry {
    this.lastId++;
    const entry: StoredLogEntry = {
      id: this.lastId,
      priority: record.priority,
      module: record.module,
      message: record.message,
      createdAt: record.createdAt,
    };
    const context = record.context && serialisableContext(record.context);
    if (context) entry.context = context;
    try {
      this.commits
        .write(() => {
          this.insertRow.run(logRow(entry));
          // Past the cap, drop the oldest tenth in the same write (the id is the age order).
          const trimEvery = Math.max(1, Math.ceil(this.maxEntries / 10));
          if (entry.id > this.maxEntries && entry.id % trimEvery === 0) {
            this.trimRows.run({ last: entry.id - this.maxEntries });
          }
        })
        .durable.then(
          () => {
            this.failing = false;
          },
          (error: unknown) => this.reportFailure(error),
        );
    } catch (error) {
      this.reportFailure(error);
    }
    return entry;
  }

  /** The newest `limit` matching entries (all when no limit), oldest first. */
  list(query: LogQuery): StoredLogEntry[] {
    const filter = new QueryFilter()
      .when('from', query.from, 'created_at >= @from')
      .when('to', query.to, 'created_at < @to')
      .when('priority', query.priority, 'priority = @priority')
      // A module and its children ("modem" finds "modem:ttyUSB0").
      .when(
        'module',
        query.module,
        "(module = @module OR substr(module, 1, length(@module) + 1) = @module || ':')",
      );
    const rows = this.queries
      .get(`SELECT body FROM logs ${filter.where} ORDER BY created_at DESC, id DESC LIMIT @limit`)
      .all({ ...filter.params, limit: sqlLimit(query.limit ?? Number.POSITIVE_INFINITY) }) as {
      body: string;
    }[];
    return rows.map((row) => JSON.parse(row.body) as StoredLogEntry).reverse();
  }

  pruneOlderThan(before: number): Promise<number> {
    return chunkedDelete(
      this.commits,
      this.queries.get(
        'DELETE FROM logs WHERE id IN (SELECT id FROM logs WHERE created_at < @before LIMIT @chunk)',
      ),
      { before },
    );
  }

  count(): number {
    return (this.queries.get('SELECT count(*) AS total FROM logs').get() as { total: number }).total;
  }

  private storedLastId(): number {
    return (this.queries.get('SELECT coalesce(max(id), 0) AS last FROM logs').get() as { last: number }).last;
  }

  private reportFailure(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.options.logger.error('log entries cannot be stored', { error });
  }
}

/** The row of a log entry: its JSON plus the columns queries filter and order by. */
export function logRow(entry: StoredLogEntry): LogRow {
  return {
    id: entry.id,
    created_at: entry.createdAt,
    priority: entry.priority,
    module: entry.module,
    body: JSON.stringify(entry),
  };
}

/**
 * Contexts hold whatever a caller had at hand (errors, buffers, bigints). Store what JSON can
 * say about them; never let one odd value lose the entry.
 */
function serialisableContext(context: LogContext): LogContext | undefined {
  try {
    const json = JSON.stringify(context, (_key, value: unknown) => {
      if (value instanceof Error) return { name: value.name, message: value.message };
      if (typeof value === 'bigint') return value.toString();
      return value;
    });
    return json === undefined ? undefined : (JSON.parse(json) as LogContext);
  } catch {
    return { unserialisable: true };
  }
}
