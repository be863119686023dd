import type { OutboxJob } from '../../contract/domain/outboxJob.js';
import type { Outbox } from '../../services/outbox/outbox.js';
import type { KeyedCollection } from '../../store/keyedCollection.js';
import type { MobilePatchMessageItem } from './mobileApi.js';

/**
 * A message of the server's still changing here: the last report queued for it, so a change is
 * queued once, and a change the gateway made but did not queue (killed in between) is found
 * and queued at the next start.
 */
export interface TrackedMessage {
  id: string;
  lastReport: string;
}

/** A report kept in the `fleet-report-outbox` collection before the one outbox; `id` is its place. */
export interface StoredReport {
  id: string;
  report: MobilePatchMessageItem;
  queuedAt: number;
}

/** The one private server: its reports leave in the order they were queued. */
export const reportLane = 'private-server';

export function jobOfStoredReport(stored: StoredReport): Omit<OutboxJob<MobilePatchMessageItem>, 'seq'> {
  return {
    id: `fleet-report:${stored.id}`,
    kind: 'fleet-report',
    lane: reportLane,
    payload: stored.report,
    createdAt: stored.queuedAt,
    state: 'pending',
    nextAttemptAt: stored.queuedAt,
    attemptCount: 0,
    attempts: [],
  };
}

/**
 * The state reports owed to the server, as jobs of the one outbox, and the messages still
 * tracked. A report leaves after those queued before it (a strict lane), so a message's states
 * reach the server in the order they happened.
 */
export class ReportTracker {
  constructor(
    private readonly outbox: Outbox,
    private readonly tracked: KeyedCollection<TrackedMessage>,
  ) {}

  /** Reports the server has not taken yet. */
  get size(): number {
    return this.outbox.pendingCount('fleet-report');
  }

  holdsReportFor(messageId: string): boolean {
    return this.outbox
      .pending<MobilePatchMessageItem>('fleet-report')
      .some((job) => job.payload.id === messageId);
  }

  /** The server's messages whose final report is not queued yet. */
  trackedIds(): string[] {
    return [...this.tracked.values()].map((tracked) => tracked.id);
  }

  /**
   * Queues `report` unless it repeats the last one queued for its message (`force`: even
   * then, for a server that still thinks the message Pending). With `final`, the message is no
   * longer tracked. Report and tracking are written in the same commit; resolves once durable.
   */
  queue(report: MobilePatchMessageItem, options: { final: boolean; force?: boolean }): Promise<void> {
    const signature = JSON.stringify(report);
    if (!options.force && this.tracked.get(report.id)?.lastReport === signature) return Promise.resolve();
    const writes = [
      this.outbox.hold({ kind: 'fleet-report', lane: reportLane, payload: report }),
      options.final
        ? this.tracked.delete(report.id)
        : this.tracked.put({ id: report.id, lastReport: signature }),
    ];
    return Promise.all(writes).then(() => undefined);
  }
}
