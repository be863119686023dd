import {
  JournalCollection,
  type JournalCollectionOptions,
  type RecordKey,
} from './journal/journalCollection.js';
import type { Page, TimeRange } from './repositories.js';
import { TimeOrderedIndex } from './timeOrderedIndex.js';

/** Told about every record that enters or leaves memory (load, insert, replace, removal). */
export interface RecordObserver<T> {
  stored(record: T): void;
  removed(record: T): void;
}

export interface TimeIndexedCollectionOptions<T> extends JournalCollectionOptions {
  /** The time a record is listed by (createdAt, receivedAt); never changes for a record. */
  timeOf: (record: T) => number;
  observer?: RecordObserver<T>;
}

/**
 * The machinery shared by the message, inbox and log repositories: a journal collection plus a
 * time-ordered index for newest-first pages, time-range queries and retention.
 */
export class TimeIndexedCollection<T extends { id: RecordKey }> {
  private constructor(
    private readonly collection: JournalCollection<T>,
    private readonly index: TimeOrderedIndex<T['id']>,
    private readonly timeOf: (record: T) => number,
    private readonly observer: RecordObserver<T> | undefined,
  ) {}

  static async open<T extends { id: RecordKey }>(
    options: TimeIndexedCollectionOptions<T>,
  ): Promise<TimeIndexedCollection<T>> {
    const collection = await JournalCollection.open<T>(options);
    const { timeOf, observer } = options;
    const entries: [T['id'], number][] = [];
    for (const record of collection.values()) {
      observer?.stored(record);
      entries.push([record.id, timeOf(record)]);
    }
    const index = TimeOrderedIndex.from(entries);
    return new TimeIndexedCollection(collection, index, timeOf, observer);
  }

  get size(): number {
    return this.collection.size;
  }

  get(id: T['id']): T | undefined {
    return this.collection.get(id);
  }

  has(id: T['id']): boolean {
    return this.collection.has(id);
  }

  values(): IterableIterator<T> {
    return this.collection.values();
  }

  /**
   * Stores a record whose id is new (the caller checked). Visible at once; if it cannot be made
   * durable it is taken out of memory again, so the caller's error and the store agree and a
   * retry (a client resending, a modem re-reading its SIM) is not mistaken for a duplicate.
   */
  insert(record: T): Promise<void> {
    let durable: Promise<void>;
    try {
      durable = this.collection.put(record);
    } catch (error) {
      // Closed or broken journal: nothing changed; callers get a promise either way.
      return Promise.reject(error);
    }
    const stored = this.collection.get(record.id) as T;
    this.index.add(stored.id, this.timeOf(stored));
    this.observer?.stored(stored);
    return durable.catch((error: unknown) => {
      if (this.collection.get(stored.id) === stored) this.forget(stored);
      throw error;
    });
  }

  /** Replaces a stored record (same id). */
  replace(record: T): Promise<void> {
    const previous = this.collection.get(record.id);
    let durable: Promise<void>;
    try {
      durable = this.collection.put(record);
    } catch (error) {
      return Promise.reject(error);
    }
    const stored = this.collection.get(record.id) as T;
    if (previous) {
      const previousTime = this.timeOf(previous);
      if (previousTime !== this.timeOf(stored)) {
        this.index.remove(stored.id, previousTime);
        this.index.add(stored.id, this.timeOf(stored));
      }
      this.observer?.removed(previous);
    } else {
      this.index.add(stored.id, this.timeOf(stored));
    }
    this.observer?.stored(stored);
    return durable;
  }

  page(range: TimeRange, offset: number, limit: number, match?: (record: T) => boolean): Page<T> {
    const { total, keys } = this.index.pageNewestFirst(range, offset, limit, match && this.matchKey(match));
    return { total, items: keys.map((key) => this.collection.get(key) as T) };
  }

  /**
   * Like `page`, but only over `subset` (e.g. the ids in one state, kept by the caller). A sparse
   * subset (a few Pending among 100,000) is sorted on its own instead of scanning the history; a
   * dense one is scanned, stopping at a full page when nothing but membership is asked.
   * `newerFirst` orders records with equal times (the index keeps insertion order for those).
   */
  pageWithin(
    subset: ReadonlySet<T['id']>,
    range: TimeRange,
    offset: number,
    limit: number,
    newerFirst: (left: T, right: T) => number,
    match?: (record: T) => boolean,
  ): Page<T> {
    if (subset.size * sparseSubsetRatio < this.index.length) {
      const items: T[] = [];
      for (const id of subset) {
        const record = this.collection.get(id);
        if (!record || !inRange(this.timeOf(record), range) || (match && !match(record))) continue;
        items.push(record);
      }
      items.sort((left, right) => this.timeOf(right) - this.timeOf(left) || newerFirst(left, right));
      return { total: items.length, items: items.slice(offset, offset + limit) };
    }
    const unbounded = range.from === undefined && range.to === undefined && !match;
    const inSubset = (key: T['id']) => {
      if (!subset.has(key)) return false;
      const record = this.collection.get(key);
      return record !== undefined && (!match || match(record));
    };
    const { total, keys } = this.index.pageNewestFirst(
      range,
      offset,
      limit,
      inSubset,
      unbounded ? subset.size : undefined,
    );
    return { total, items: keys.map((key) => this.collection.get(key) as T) };
  }

  latest(range: TimeRange, limit: number, match?: (record: T) => boolean): T[] {
    return this.index
      .latest(range, limit, match && this.matchKey(match))
      .map((key) => this.collection.get(key) as T);
  }

  /** Removes records listed before `before` that `removable` accepts; returns how many. */
  async pruneBefore(before: number, removable: (record: T) => boolean = () => true): Promise<number> {
    const doomed = new Set<T['id']>();
    for (const key of this.index.before(before)) {
      const record = this.collection.get(key);
      if (record && removable(record)) doomed.add(key);
    }
    return this.removeAll(doomed);
  }

  /** The `count` oldest records, for size caps. */
  oldest(count: number): T[] {
    return this.index.first(count).map((key) => this.collection.get(key) as T);
  }

  async removeAll(ids: ReadonlySet<T['id']>): Promise<number> {
    if (ids.size === 0) return 0;
    const writes: Promise<void>[] = [];
    for (const id of ids) {
      const record = this.collection.get(id);
      if (!record) continue;
      writes.push(this.collection.delete(id));
      this.observer?.removed(record);
    }
    this.index.retain((key) => !ids.has(key));
    await Promise.all(writes);
    return writes.length;
  }

  close(): Promise<void> {
    return this.collection.close();
  }

  compact(): Promise<void> {
    return this.collection.compact();
  }

  private matchKey(match: (record: T) => boolean): (key: T['id']) => boolean {
    return (key) => {
      const record = this.collection.get(key);
      return record !== undefined && match(record);
    };
  }

  private forget(record: T): void {
    this.index.remove(record.id, this.timeOf(record));
    this.observer?.removed(record);
    this.collection.discardUnwritten(record.id);
  }
}

/** A subset smaller than 1/8 of the history is cheaper to sort than to find by scanning. */
const sparseSubsetRatio = 8;

function inRange(time: number, range: TimeRange): boolean {
  return (range.from === undefined || time >= range.from) && (range.to === undefined || time < range.to);
}
