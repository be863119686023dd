import type { FailureReason } from './failureTexts.js';
import type { MessageRecord } from './message.js';

/**
 * A device that keeps handed-over messages in a queue of its own (an Android phone's app): its
 * recipients stay Processed here until it reports, so a cancel and a restart ask it, not us.
 */
export interface MessageHolder {
  /** Whether this message's Processed recipients wait in the holder's own queue. */
  holds(message: MessageRecord): boolean;
  /**
   * Asks the holder to drop the message's Processed recipients; marks those it dropped
   * Cancelled (`markRecipientCancelled`). Rejects with InvalidState when it is already sending them.
   */
  cancel(message: MessageRecord): Promise<void>;
}

/**
 * What such a device reports of the messages it holds, recorded by the message lifecycle: a
 * device kind states the outcome and never reaches the service that records it.
 */
export interface HeldMessageOutcomes {
  addHolder(holder: MessageHolder): () => void;
  markRecipientSent(messageId: string, phoneNumber: string, references: number[]): Promise<unknown>;
  markRecipientDelivered(messageId: string, phoneNumber: string): Promise<unknown>;
  markRecipientCancelled(messageId: string, phoneNumber: string): Promise<unknown>;
  markRecipientFailed(messageId: string, phoneNumber: string, reason: FailureReason): Promise<unknown>;
  /** Back to the queue: the device lost what it held. */
  requeue(messageId: string): Promise<unknown>;
}
