/** A change to loaded data, as `useResource().setData` takes it. */
export type DataUpdate<T> = (current: T | undefined) => T | undefined;

/**
 * The loads of one resource, newest wins, and the changes made while one is in flight. A live
 * event can land while a page is being read: applied to the data shown then, it would be lost
 * when the read's answer replaces that data, if the read was answered before the change. So each
 * change made during a load is kept and applied again to its answer (the updates are written to
 * be applied twice: an item already there is replaced, not added).
 */
export class LoadReplay<T> {
  private generation = 0;
  private inFlight = false;
  private madeDuringLoad: DataUpdate<T>[] = [];

  /** A load starts; returns its token for `finish`. Changes from now on are kept for it. */
  start(): number {
    this.inFlight = true;
    this.madeDuringLoad = [];
    return ++this.generation;
  }

  /** A change is made now: kept if a load is in flight. */
  changed(update: DataUpdate<T>): void {
    if (this.inFlight) this.madeDuringLoad.push(update);
  }

  /**
   * The answer of the load with `token`, with the changes made since it started applied to it;
   * `stale` when a newer load started since (its answer must be dropped).
   */
  finish(token: number, answer: T): { stale: true } | { stale: false; data: T | undefined } {
    if (token !== this.generation) return { stale: true };
    const updates = this.madeDuringLoad;
    this.inFlight = false;
    this.madeDuringLoad = [];
    return { stale: false, data: updates.reduce<T | undefined>((data, update) => update(data), answer) };
  }

  /** The load with `token` failed; nothing of it is applied. Whether it was the newest. */
  fail(token: number): boolean {
    if (token !== this.generation) return false;
    this.inFlight = false;
    this.madeDuringLoad = [];
    return true;
  }
}
