import type { LogContext, LogRecord } from '../logging/logger.js';
import type { JournalCollectionOptions } from './journal/journalCollection.js';
import type { LogQuery, LogRepository, StoredLogEntry } from './repositories.js';
import { TimeIndexedCollection } from './timeIndexedCollection.js';

export interface LogRepositoryOptions extends JournalCollectionOptions {
  /**
   * Most entries kept (memory bound for a chatty DEBUG level); the oldest tenth goes when it is
   * exceeded. Age-based retention (`logs.lifetime_days`) is `pruneOlderThan`.
   */
  maxEntries?: number;
}

export const defaultMaxLogEntries = 50_000;

/**
 * The store behind GET /logs. `append` never waits and never throws: the logger calls it from
 * every layer, and a full disk must not take the gateway down with it. Writes are batched by the
 * journal's group commit; a failure is reported once (through the logger, which may well land
 * back here) until a later write succeeds.
 */
export class JournalLogRepository implements LogRepository {
  private lastId: number;
  private failing = false;
  private trimming = false;

  private constructor(
    private readonly records: TimeIndexedCollection<StoredLogEntry>,
    private readonly options: LogRepositoryOptions,
  ) {
    let lastId = 0;
    for (const record of records.values()) lastId = Math.max(lastId, record.id);
    this.lastId = lastId;
  }

  static async open(options: LogRepositoryOptions): Promise<JournalLogRepository> {
    const records = await TimeIndexedCollection.open<StoredLogEntry>({
      ...options,
      timeOf: (record) => record.createdAt,
    });
    return new JournalLogRepository(records, options);
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
    this.records.insert(entry).then(
      () => {
        this.failing = false;
      },
      (error: unknown) => this.reportFailure(error),
    );
    this.trimIfFull();
    return entry;
  }

  /** The newest `limit` matching entries (all when no limit), oldest first. */
  list(query: LogQuery): StoredLogEntry[] {
    const { priority, module } = query;
    const match =
      priority === undefined && module === undefined
        ? undefined
        : (entry: StoredLogEntry) =>
            (priority === undefined || entry.priority === priority) &&
            (module === undefined || entry.module === module || entry.module.startsWith(`${module}:`));
    return this.records.latest(query, query.limit ?? Number.POSITIVE_INFINITY, match);
  }

  pruneOlderThan(before: number): Promise<number> {
    return this.records.pruneBefore(before);
  }

  count(): number {
    return this.records.size;
  }

  close(): Promise<void> {
    return this.records.close();
  }

  private trimIfFull(): void {
    const maxEntries = this.options.maxEntries ?? defaultMaxLogEntries;
    if (this.trimming || this.records.size <= maxEntries) return;
    const excess = this.records.size - maxEntries + Math.ceil(maxEntries / 10);
    const oldest = new Set(this.records.oldest(excess).map((entry) => entry.id));
    this.trimming = true;
    this.records
      .removeAll(oldest)
      .catch((error: unknown) => this.reportFailure(error))
      .finally(() => {
        this.trimming = false;
      });
  }

  private reportFailure(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.options.logger.error('log entries cannot be stored', { path: this.options.path, error });
  }
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
