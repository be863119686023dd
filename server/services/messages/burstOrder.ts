import type { MessageRecord } from '../../contract/domain/message.js';

/**
 * Keeps a burst from one sender over SMPP or e-mail in the order it was submitted. Such clients
 * submit one message after another and expect them to go out so (a booking and then its
 * change), but the queue sends the newest first by default (LIFO). A message whose sender's
 * previous one still waits joins that one's place in the queue (`batchSequence`, as a bulk
 * send's messages do), and goes out after it; once the previous one has left, a new burst
 * begins. One entry per sender, in memory: after a restart a burst starts anew.
 */
export class BurstOrder {
  private readonly bursts = new Map<string, { batchSequence: number; lastId: string }>();

  constructor(private readonly stillWaiting: (messageId: string) => boolean) {}

  /** `record` in its sender's burst; call in the turn it is enqueued. */
  place(sender: string, record: MessageRecord): MessageRecord {
    const burst = this.bursts.get(sender);
    const batchSequence = burst && this.stillWaiting(burst.lastId) ? burst.batchSequence : record.sequence;
    this.bursts.set(sender, { batchSequence, lastId: record.id });
    return batchSequence === record.sequence ? record : { ...record, batchSequence };
  }
}
