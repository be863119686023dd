import type { MessageRecord } from './message.js';

export type ProcessingOrder = 'LIFO' | 'FIFO';

/** Priority from which a message skips limits and delays (spec, Limits: "100 to 127 bypasses all"). */
export const EXPEDITED_PRIORITY = 100;

export function isExpedited(message: Pick<MessageRecord, 'priority'>): boolean {
  return message.priority >= EXPEDITED_PRIORITY;
}

type Ordered = Pick<MessageRecord, 'priority' | 'sequence' | 'batchSequence'>;

/**
 * The one ordering of the queue; negative when `left` goes first. Each level:
 * 1. priority, higher first: the spec's processing flow takes messages "ordered by priority";
 * 2. enqueue order of the message, or of its bulk send as a whole (`batchSequence`): for equal
 *    priority the spec sends newest first (LIFO, the default) unless the user chose FIFO;
 * 3. `sequence`, lower first: a bulk send goes out in its list order whatever the setting
 *    (the first customers on the list must not be the ones a cancel leaves out).
 * `sequence` is strictly increasing, so no two messages tie and the order is total (the outcome
 * never depends on how the repository lists them).
 */
export function compareMessages(order: ProcessingOrder, left: Ordered, right: Ordered): number {
  if (left.priority !== right.priority) return right.priority - left.priority;
  const leftPlace = left.batchSequence ?? left.sequence;
  const rightPlace = right.batchSequence ?? right.sequence;
  if (leftPlace !== rightPlace) return order === 'FIFO' ? leftPlace - rightPlace : rightPlace - leftPlace;
  return left.sequence - right.sequence;
}

/** The first of `messages` in queue order that `accept` takes; undefined when it takes none. */
export function firstInOrder<Message extends Ordered>(
  order: ProcessingOrder,
  messages: Iterable<Message>,
  accept: (message: Message) => boolean = () => true,
): Message | undefined {
  let first: Message | undefined;
  for (const message of messages) {
    if (!accept(message)) continue;
    if (!first || compareMessages(order, message, first) < 0) first = message;
  }
  return first;
}
