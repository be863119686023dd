import type { MessageRecord } from '../../contract/domain/message.js';
import type { ProcessingOrder } from '../../contract/domain/messageOrder.js';
import type { MessageRepository, WaitingDeadlines, WaitingEntry } from '../../store/repositories.js';

/** When the queue next needs a scan of its own. */
export type QueueDue = WaitingDeadlines;

/**
 * How many queued messages the window holds: more than a scan of 32 modems hands over, so the
 * window is read again only when the queue changed or half of it was handed over.
 */
export const windowSize = 256;

/**
 * How long a walker whose walk past the window found nothing is not sent past it again, unless
 * the queue is read again or `retryWalks` is called: a modem that may carry none of a long queue
 * (its plan capped, routing elsewhere) would otherwise read the whole queue at every scan.
 */
export const fruitlessWalkMs = 5_000;

type Queue = Pick<
  MessageRepository,
  'waiting' | 'expiredWaiting' | 'waitingDeadlines' | 'pendingRevision' | 'isPending'
>;

/**
 * The front of the queue in order, kept from one scan to the next: a window of the first
 * `windowSize` ready messages, read from the queue's table (the repository's `waiting`), never
 * the whole queue. The window is read again only when a message was queued or changed while
 * queued (the repository's `pendingRevision`), the processing order changed, or an expiry or a
 * schedule fell due; otherwise a scan reuses it, what left the queue meanwhile (handed over,
 * cancelled) is skipped as it is met and dropped from the front, and the window is topped up
 * from behind its last entry once half of it is gone. A hand-over then costs the messages it
 * passes over, not the queue's length, and memory holds the window, not the queue.
 */
export class ReadyQueue {
  private window: WaitingEntry[] = [];
  /** Entries before this index left the queue. */
  private head = 0;
  /** The window holds every ready message behind its first: no page follows it. */
  private complete = true;
  private revision = -1;
  private order: ProcessingOrder = 'LIFO';
  private now = 0;
  private due: QueueDue = { nextExpiry: Number.POSITIVE_INFINITY, nextScheduled: Number.POSITIVE_INFINITY };
  /** Per walker, when its walk past the window last found nothing. */
  private readonly fruitless = new Map<string, number>();

  constructor(private readonly repository: Queue) {}

  /**
   * Brings the window up to date for a scan at `now`; `expire` gets each queued message whose
   * `validUntil` has passed, which is then not offered.
   */
  refresh(order: ProcessingOrder, now: number, expire: (message: MessageRecord) => void): QueueDue {
    const revision = this.repository.pendingRevision();
    const due = Math.min(this.due.nextExpiry, this.due.nextScheduled) <= now;
    this.now = now;
    if (revision !== this.revision || order !== this.order || due) this.reread(order, now, expire);
    else this.dropLeftFront();
    return this.due;
  }

  /**
   * The first message in queue order that is ready now, still queued and that `accept` takes;
   * undefined when there is none, or when `past` says the rest of the order cannot be taken.
   * Past the window it reads the queue on a page at a time, without keeping the pages; a
   * `walker` (a modem) whose walk there found nothing is not sent there again for
   * `fruitlessWalkMs`, while the queue stays as it was.
   */
  first(
    accept: (message: MessageRecord) => boolean = () => true,
    past: (message: MessageRecord) => boolean = () => false,
    walker?: string,
  ): MessageRecord | undefined {
    const offer = (message: MessageRecord): 'take' | 'stop' | 'next' => {
      if (past(message)) return 'stop';
      return accept(message) ? 'take' : 'next';
    };
    for (let index = this.head; index < this.window.length; index++) {
      const entry = this.window[index];
      if (!entry || !this.repository.isPending(entry.record.id)) continue;
      const verdict = offer(entry.record);
      if (verdict === 'take') return entry.record;
      if (verdict === 'stop') return undefined;
    }
    if (this.complete) return undefined;
    const fruitlessAt = walker === undefined ? undefined : this.fruitless.get(walker);
    if (fruitlessAt !== undefined && this.now - fruitlessAt < fruitlessWalkMs) return undefined;
    let after = this.window.at(-1)?.key;
    for (;;) {
      const page = this.repository.waiting(this.order, this.now, windowSize, after);
      for (const entry of page) {
        const verdict = offer(entry.record);
        if (verdict === 'take') return entry.record;
        if (verdict === 'stop') return undefined;
      }
      if (page.length < windowSize) break;
      after = page.at(-1)?.key;
    }
    if (walker !== undefined) this.fruitless.set(walker, this.now);
    return undefined;
  }

  /** Something outside the queue changed (a modem, a setting): every walker may walk again. */
  retryWalks(): void {
    this.fruitless.clear();
  }

  private reread(order: ProcessingOrder, now: number, expire: (message: MessageRecord) => void): void {
    for (const message of this.repository.expiredWaiting(now)) expire(message);
    this.due = this.repository.waitingDeadlines(now);
    this.window = this.repository.waiting(order, now, windowSize);
    this.head = 0;
    this.complete = this.window.length < windowSize;
    this.order = order;
    this.fruitless.clear();
    // Read after the expiries were handed on: their writes leave the queue, they add nothing to it.
    this.revision = this.repository.pendingRevision();
  }

  private dropLeftFront(): void {
    while (this.head < this.window.length) {
      const first = this.window[this.head];
      if (first && this.repository.isPending(first.record.id)) break;
      this.head++;
    }
    if (this.head * 2 < this.window.length || this.head === 0) return;
    // Half of the window is gone: cut it, and read as many again from behind its last entry.
    this.window = this.window.slice(this.head);
    this.head = 0;
    if (this.complete) return;
    const wanted = windowSize - this.window.length;
    const more = this.repository.waiting(this.order, this.now, wanted, this.window.at(-1)?.key);
    this.window.push(...more);
    this.complete = more.length < wanted;
  }
}
