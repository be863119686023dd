import type { KeyedCollection } from '../store/keyedCollection.js';
import type { MobilePatchMessageItem } from './mobileApi.js';

/** One state report waiting for the server; `id` is its place in the queue (zero-padded). */
export interface QueuedReport {
  id: string;
  report: MobilePatchMessageItem;
  queuedAt: number;
}

/**
 * A message of the server's still changing here: the last report queued for it, so a change is
 * queued once, and a change the gateway made but did not queue (killed in between) is found
 * and queued at the next start.
 */
export interface TrackedMessage {
  id: string;
  lastReport: string;
}

/**
 * The durable queue of state reports to the server, in the store's keyed collections (as the
 * webhook outbox). Reports leave in the order they were queued, so a message's states reach the
 * server in the order they happened; a report is removed only after the server took it.
 */
export class ReportOutbox {
  private readonly waiting: QueuedReport[] = [];
  private nextPlace = 1;

  constructor(
    private readonly reports: KeyedCollection<QueuedReport>,
    private readonly tracked: KeyedCollection<TrackedMessage>,
  ) {
    // Ids sort as the queue's order: the collection is read back in primary-key order.
    for (const queued of reports.values()) this.waiting.push(queued);
    const last = this.waiting.at(-1);
    if (last) this.nextPlace = Number(last.id) + 1;
  }

  get size(): number {
    return this.waiting.length;
  }

  /** The oldest `limit` reports, in order. */
  oldest(limit: number): readonly QueuedReport[] {
    return this.waiting.slice(0, limit);
  }

  holdsReportFor(messageId: string): boolean {
    return this.waiting.some((queued) => queued.report.id === messageId);
  }

  /** The server's messages whose final report is not queued yet. */
  trackedIds(): string[] {
    return [...this.tracked.values()].map((tracked) => tracked.id);
  }

  /**
   * Queues `report` unless it repeats the last one queued for its message (`force`: even
   * then, for a server that still thinks the message Pending). With `final`, the message is no
   * longer tracked. Report and tracking are written in the same commit.
   */
  queue(
    report: MobilePatchMessageItem,
    at: number,
    options: { final: boolean; force?: boolean },
  ): Promise<void> {
    const signature = JSON.stringify(report);
    if (!options.force && this.tracked.get(report.id)?.lastReport === signature) return Promise.resolve();
    const queued: QueuedReport = { id: String(this.nextPlace++).padStart(16, '0'), report, queuedAt: at };
    this.waiting.push(queued);
    const writes = [
      this.reports.put(queued),
      options.final
        ? this.tracked.delete(report.id)
        : this.tracked.put({ id: report.id, lastReport: signature }),
    ];
    return Promise.all(writes).then(() => undefined);
  }

  /** The server took these: they leave the queue. */
  async remove(taken: readonly QueuedReport[]): Promise<void> {
    const ids = new Set(taken.map((queued) => queued.id));
    for (let index = this.waiting.length - 1; index >= 0; index--) {
      const queued = this.waiting[index];
      if (queued && ids.has(queued.id)) this.waiting.splice(index, 1);
    }
    await Promise.all([...ids].map((id) => this.reports.delete(id)));
  }
}
