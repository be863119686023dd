import type { TimeRange } from './repositories.js';

/**
 * Keys sorted by a timestamp (ties keep insertion order), as two parallel arrays so 100,000
 * entries cost two flat arrays, not 100,000 objects. Inserts are appends in the normal case
 * (time only moves forward); a range is found by binary search, so an unfiltered page is
 * O(log n + limit) however long the history is.
 */
export class TimeOrderedIndex<K> {
  private keys: K[] = [];
  private times: number[] = [];

  /** Builds the index in one sort instead of n insertions. */
  static from<K>(entries: Iterable<readonly [K, number]>): TimeOrderedIndex<K> {
    const index = new TimeOrderedIndex<K>();
    const keys: K[] = [];
    const times: number[] = [];
    let sorted = true;
    for (const [key, time] of entries) {
      if (times.length > 0 && time < (times[times.length - 1] as number)) sorted = false;
      keys.push(key);
      times.push(time);
    }
    if (sorted) {
      index.keys = keys;
      index.times = times;
      return index;
    }
    // Stable sort by position list: equal times keep their journal (insertion) order.
    const order = keys.map((_key, position) => position);
    order.sort((left, right) => (times[left] as number) - (times[right] as number) || left - right);
    index.keys = order.map((position) => keys[position] as K);
    index.times = order.map((position) => times[position] as number);
    return index;
  }

  get length(): number {
    return this.keys.length;
  }

  add(key: K, time: number): void {
    const last = this.times[this.times.length - 1];
    if (last === undefined || time >= last) {
      this.keys.push(key);
      this.times.push(time);
      return;
    }
    const position = this.upperBound(time);
    this.keys.splice(position, 0, key);
    this.times.splice(position, 0, time);
  }

  remove(key: K, time: number): boolean {
    for (let position = this.lowerBound(time); this.times[position] === time; position++) {
      if (this.keys[position] === key) {
        this.keys.splice(position, 1);
        this.times.splice(position, 1);
        return true;
      }
    }
    return false;
  }

  /** Keeps only the entries `keep` accepts, in one pass. */
  retain(keep: (key: K, time: number) => boolean): void {
    let write = 0;
    for (let read = 0; read < this.keys.length; read++) {
      const key = this.keys[read] as K;
      const time = this.times[read] as number;
      if (!keep(key, time)) continue;
      this.keys[write] = key;
      this.times[write] = time;
      write++;
    }
    this.keys.length = write;
    this.times.length = write;
  }

  /** The `count` oldest keys, oldest first. */
  first(count: number): K[] {
    return this.keys.slice(0, count);
  }

  /** Keys with time before `before`, oldest first. */
  before(before: number): K[] {
    return this.keys.slice(0, this.lowerBound(before));
  }

  /**
   * Newest first within `range`: skips `offset` matches, returns up to `limit`, and counts every
   * match as `total`. Without `match` nothing is scanned: the page is sliced directly. A caller
   * that already knows how many keys match passes `knownTotal`: the scan stops at a full page.
   */
  pageNewestFirst(
    range: TimeRange,
    offset: number,
    limit: number,
    match?: (key: K) => boolean,
    knownTotal?: number,
  ): { total: number; keys: K[] } {
    const [low, high] = this.bounds(range);
    const keys: K[] = [];
    if (!match) {
      const start = high - 1 - offset;
      const stop = Math.max(low, start - limit + 1);
      for (let position = start; position >= stop; position--) keys.push(this.keys[position] as K);
      return { total: high - low, keys };
    }
    let total = 0;
    for (let position = high - 1; position >= low; position--) {
      const key = this.keys[position] as K;
      if (!match(key)) continue;
      if (total >= offset && keys.length < limit) keys.push(key);
      total++;
      if (knownTotal !== undefined && keys.length === limit) return { total: knownTotal, keys };
    }
    return { total: knownTotal ?? total, keys };
  }

  /** The newest `limit` matches within `range`, returned oldest first; stops scanning early. */
  latest(range: TimeRange, limit: number, match?: (key: K) => boolean): K[] {
    const [low, high] = this.bounds(range);
    const keys: K[] = [];
    for (let position = high - 1; position >= low && keys.length < limit; position--) {
      const key = this.keys[position] as K;
      if (!match || match(key)) keys.push(key);
    }
    return keys.reverse();
  }

  private bounds(range: TimeRange): [number, number] {
    const low = range.from === undefined ? 0 : this.lowerBound(range.from);
    const high = range.to === undefined ? this.keys.length : this.lowerBound(range.to);
    return [low, Math.max(low, high)];
  }

  /** First position whose time is ≥ `time`. */
  private lowerBound(time: number): number {
    let low = 0;
    let high = this.times.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.times[middle] as number) < time) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** First position whose time is > `time`. */
  private upperBound(time: number): number {
    let low = 0;
    let high = this.times.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.times[middle] as number) <= time) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
