import type { MessageRecord } from '../../contract/domain/message.js';
import { compareMessages, type ProcessingOrder } from '../../contract/domain/messageOrder.js';
import type { MessageRepository } from '../../store/repositories.js';

/** When the queue next needs a scan of its own. */
export interface QueueDue {
  /** The earliest `validUntil` among the queued messages; Infinity when none has one. */
  nextExpiry: number;
  /** The earliest `scheduleAt` still to come; Infinity when none is scheduled. */
  nextScheduled: number;
}

/**
 * The queue in order, kept from one scan to the next. The whole queue is read and sorted only
 * when a message was queued or changed while queued (the repository's `pendingRevision`), the
 * processing order changed, or an expiry or a schedule fell due; otherwise a scan reuses the
 * order, and what left the queue meanwhile (handed over, cancelled) is skipped as it is met and
 * dropped from the front. A hand-over then costs the messages it passes over, not the queue's
 * length.
 */
export class ReadyQueue {
  private ordered: MessageRecord[] = [];
  /** Entries before this index left the queue. */
  private head = 0;
  private revision = -1;
  private order: ProcessingOrder | undefined;
  private nextExpiry = Number.POSITIVE_INFINITY;
  private nextScheduled = Number.POSITIVE_INFINITY;

  constructor(
    private readonly repository: Pick<MessageRepository, 'pending' | 'pendingRevision' | 'isPending'>,
  ) {}

  /**
   * Brings the order up to date for a scan at `now`; `expire` gets each queued message whose
   * `validUntil` has passed, which is then not offered.
   */
  refresh(order: ProcessingOrder, now: number, expire: (message: MessageRecord) => void): QueueDue {
    const revision = this.repository.pendingRevision();
    const due = Math.min(this.nextExpiry, this.nextScheduled) <= now;
    if (revision !== this.revision || order !== this.order || due) this.rebuild(order, now, expire);
    else this.dropLeftFront();
    return { nextExpiry: this.nextExpiry, nextScheduled: this.nextScheduled };
  }

  /**
   * The first message in queue order that is ready now, still queued and that `accept` takes;
   * undefined when there is none, or when `past` says the rest of the order cannot be taken.
   */
  first(
    accept: (message: MessageRecord) => boolean = () => true,
    past: (message: MessageRecord) => boolean = () => false,
  ): MessageRecord | undefined {
    for (let index = this.head; index < this.ordered.length; index++) {
      const message = this.ordered[index];
      if (!message || !this.repository.isPending(message.id)) continue;
      if (past(message)) return undefined;
      if (accept(message)) return message;
    }
    return undefined;
  }

  private rebuild(order: ProcessingOrder, now: number, expire: (message: MessageRecord) => void): void {
    const ready: MessageRecord[] = [];
    let nextExpiry = Number.POSITIVE_INFINITY;
    let nextScheduled = Number.POSITIVE_INFINITY;
    for (const message of this.repository.pending()) {
      if (message.validUntil !== undefined && now >= message.validUntil) {
        expire(message);
        continue;
      }
      if (message.validUntil !== undefined) nextExpiry = Math.min(nextExpiry, message.validUntil);
      if (message.scheduleAt !== undefined && message.scheduleAt > now) {
        nextScheduled = Math.min(nextScheduled, message.scheduleAt);
        continue;
      }
      ready.push(message);
    }
    ready.sort((left, right) => compareMessages(order, left, right));
    this.ordered = ready;
    this.head = 0;
    this.order = order;
    // Read after the expiries were handed on: their writes leave the queue, they add nothing to it.
    this.revision = this.repository.pendingRevision();
    this.nextExpiry = nextExpiry;
    this.nextScheduled = nextScheduled;
  }

  private dropLeftFront(): void {
    while (this.head < this.ordered.length) {
      const first = this.ordered[this.head];
      if (first && this.repository.isPending(first.id)) break;
      this.head++;
    }
    // The front is dropped by moving an index; the array is cut once half of it is gone.
    if (this.head > 0 && this.head * 2 >= this.ordered.length) {
      this.ordered = this.ordered.slice(this.head);
      this.head = 0;
    }
  }
}
