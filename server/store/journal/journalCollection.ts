import { JournalFile, type JournalFileOptions } from './journalFile.js';

export type RecordKey = string | number;

export interface CompactionPolicy {
  /** Compact when the file holds more than `ratio` × the live records' bytes … */
  ratio: number;
  /** … plus this many bytes (so small collections are not rewritten over and over). */
  slackBytes: number;
}

export const defaultCompactionPolicy: Readonly<CompactionPolicy> = Object.freeze({
  ratio: 2,
  slackBytes: 1 << 20,
});

export interface JournalCollectionOptions extends JournalFileOptions {
  compaction?: CompactionPolicy;
}

/**
 * A keyed collection held in memory and persisted as a journal of operations:
 * `{"p": record}` (put: insert or replace) and `{"d": id}` (delete). Replaying the journal in
 * order rebuilds the map; compaction replaces it by one put per live record.
 *
 * Writes apply to memory synchronously (a read right after `put` sees the new record) and the
 * returned promise resolves once the operation is durable. Records are kept as their JSON
 * round trip: compact (no `undefined` keys) and detached from the caller's object, exactly what
 * a restart would load. Treat what `get`/`values` return as read-only; change through `put`.
 */
export class JournalCollection<T extends { id: RecordKey }> {
  private readonly records = new Map<T['id'], T>();
  /** Bytes of each record's latest put line: live bytes decide when to compact. */
  private readonly lineBytes = new Map<T['id'], number>();
  private liveBytes = 0;
  private compacting: Promise<void> | undefined;
  private journal!: JournalFile;
  private invalidEntries = 0;

  private constructor(
    private readonly options: JournalCollectionOptions,
    private readonly policy: CompactionPolicy,
  ) {}

  static async open<T extends { id: RecordKey }>(
    options: JournalCollectionOptions,
  ): Promise<JournalCollection<T>> {
    const collection = new JournalCollection<T>(options, options.compaction ?? defaultCompactionPolicy);
    collection.journal = await JournalFile.open(options, (entry, bytes) => collection.replay(entry, bytes));
    const damaged = collection.journal.skippedLines + collection.invalidEntries;
    if (collection.invalidEntries > 0) {
      options.logger.error('journal has entries that are neither put nor delete: skipped them', {
        path: options.path,
        invalidEntries: collection.invalidEntries,
      });
    }
    // Rewrite at once so the damage is gone from disk and never reported again. If that fails,
    // the skipped lines stay skipped: the data loaded is the same either way.
    if (damaged > 0) {
      await collection.compact().catch((error: unknown) => {
        options.logger.error('journal could not be rewritten after damage', { path: options.path, error });
      });
    }
    return collection;
  }

  get size(): number {
    return this.records.size;
  }

  /** Bytes the journal file holds (including appends not yet flushed). */
  get fileBytes(): number {
    return this.journal.bytes;
  }

  get(id: T['id']): T | undefined {
    return this.records.get(id);
  }

  has(id: T['id']): boolean {
    return this.records.has(id);
  }

  /** In first-insertion order (the order of the journal). */
  values(): IterableIterator<T> {
    return this.records.values();
  }

  /**
   * Inserts or replaces. Memory is updated before this returns; the promise resolves once the
   * record is durable. Throws GatewayError(StoreClosed | StoreIo) at once, memory untouched,
   * when the journal cannot take writes.
   */
  put(record: T): Promise<void> {
    const json = JSON.stringify({ p: record });
    const { bytes, durable } = this.journal.append(json);
    this.setLive((JSON.parse(json) as { p: T }).p, bytes);
    this.compactIfWasteful();
    return durable;
  }

  /** Removes the record; resolves once the removal is durable (at once when there is none). */
  delete(id: T['id']): Promise<void> {
    if (!this.records.has(id)) return Promise.resolve();
    const { durable } = this.journal.append(JSON.stringify({ d: id }));
    this.removeLive(id);
    this.compactIfWasteful();
    return durable;
  }

  /**
   * Drops a record from memory only: for a put whose write failed (the journal cut it off again),
   * so memory matches the file without appending anything.
   */
  discardUnwritten(id: T['id']): void {
    this.removeLive(id);
  }

  /** Rewrites the journal with one line per live record. Concurrent calls share one run. */
  compact(): Promise<void> {
    if (!this.compacting) {
      this.compacting = this.journal
        .rewrite(() => this.snapshot())
        .finally(() => {
          this.compacting = undefined;
        });
    }
    return this.compacting;
  }

  async close(): Promise<void> {
    await this.compacting?.catch(() => undefined);
    await this.journal.close();
  }

  private *snapshot(): Generator<{ p: T }> {
    for (const record of this.records.values()) yield { p: record };
  }

  private replay(entry: unknown, bytes: number): void {
    if (typeof entry === 'object' && entry !== null) {
      if ('p' in entry && isKeyed(entry.p)) {
        this.setLive(entry.p as T, bytes);
        return;
      }
      if ('d' in entry && isRecordKey(entry.d)) {
        this.removeLive(entry.d as T['id']);
        return;
      }
    }
    this.invalidEntries++;
  }

  private setLive(record: T, bytes: number): void {
    this.liveBytes += bytes - (this.lineBytes.get(record.id) ?? 0);
    this.lineBytes.set(record.id, bytes);
    this.records.set(record.id, record);
  }

  private removeLive(id: T['id']): void {
    this.liveBytes -= this.lineBytes.get(id) ?? 0;
    this.lineBytes.delete(id);
    this.records.delete(id);
  }

  private compactIfWasteful(): void {
    if (this.compacting) return;
    if (this.journal.bytes <= this.policy.ratio * this.liveBytes + this.policy.slackBytes) return;
    this.compact().catch((error: unknown) => {
      // The old journal stays valid and keeps growing; the next write retries.
      this.options.logger.error('journal compaction failed', { path: this.options.path, error });
    });
  }
}

function isRecordKey(value: unknown): value is RecordKey {
  return typeof value === 'string' || typeof value === 'number';
}

function isKeyed(value: unknown): value is { id: RecordKey } {
  return typeof value === 'object' && value !== null && isRecordKey((value as { id?: unknown }).id);
}
