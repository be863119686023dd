/**
 * What we know of the hand-overs a phone holds, and the polling that settles them. The phone
 * keeps its own queue: a recipient handed over stays Processed here until `GET /messages/{id}`
 * (or a webhook, `applyWebhookState`) says Sent, Delivered or Failed.
 *
 * A 404 means different things by what we know of the id: for a hand-over that may not have
 * reached the phone (`unsure`: left Processed by a restart, or a POST nobody answered) it never
 * arrived, and the message goes back to the queue; for one the phone confirmed holding
 * (`confirmed`: 202, 409 or a GET) the app lost it, and it fails with the interruption text.
 */

import { interrupted } from '../../contract/domain/failureTexts.js';
import type { Logger } from '../../logging/logger.js';
import type { PhoneClient } from './phoneClient.js';
import type { OutstandingSend, PhoneLedger } from './phoneLedger.js';
import { outcomeOf, type PhoneOutcome, phoneMessageId } from './phoneMessages.js';

/** Confirmed ids remembered at most (see `confirm`). */
const CONFIRMED_LIMIT = 5_000;

export interface PhoneHandOversDeps {
  deviceId: string;
  client: PhoneClient;
  ledger: PhoneLedger;
  logger: Logger;
  /** Something the pool shows changed (a recipient settled, a message re-queued). */
  changed: () => void;
}

export class PhoneHandOvers {
  /** Phone ids whose hand-over may not have reached the phone: a 404 means it never arrived. */
  private readonly unsure = new Set<string>();
  /** Phone ids the phone confirmed holding: a 404 for one of these means it lost it. */
  private readonly confirmed = new Set<string>();

  constructor(private readonly deps: PhoneHandOversDeps) {}

  /**
   * Bounded: an id confirmed after a webhook already made it Sent (no report asked) is never
   * polled again, so nothing else would remove it.
   */
  confirm(id: string): void {
    this.confirmed.add(id);
    if (this.confirmed.size > CONFIRMED_LIMIT)
      this.confirmed.delete(this.confirmed.values().next().value as string);
  }

  /** A hand-over got no answer: it may be on the phone, asked again (GET, never POST) later. */
  markUnsure(id: string): void {
    this.unsure.add(id);
  }

  isUnsure(id: string): boolean {
    return this.unsure.has(id);
  }

  /** The id's outcome is final here: nothing more to ask the phone. */
  forget(id: string): void {
    this.unsure.delete(id);
    this.confirmed.delete(id);
  }

  /** At the first answer of this run: what was Processed before it is a hand-over a restart may have cut short. */
  adoptFromBeforeRestart(): void {
    for (const send of this.deps.ledger.outstanding(this.deps.deviceId)) {
      if (send.state === 'Processed') this.unsure.add(phoneMessageId(send.messageId, send.recipientIndex));
    }
  }

  /**
   * Outcomes of what this phone holds or sent with a report to come: polled for every recipient
   * not final here yet. A 404 for an `unsure` hand-over puts the message back in the queue once
   * none of its recipients is on the phone; a 404 for a confirmed one fails it.
   */
  async readStates(): Promise<void> {
    const { ledger, client, logger } = this.deps;
    /** Per message: the phone ids of its recipients it lacks, or null once one is (or may be) there. */
    const absent = new Map<string, string[] | null>();
    const noteAbsent = (messageId: string, id: string | null) => {
      const known = absent.get(messageId);
      absent.set(messageId, id === null || known === null ? null : [...(known ?? []), id]);
    };
    for (const send of ledger.outstanding(this.deps.deviceId)) {
      const id = phoneMessageId(send.messageId, send.recipientIndex);
      const message = await client.message(id);
      if (!message) {
        if (send.state !== 'Processed') continue;
        if (this.unsure.has(id)) noteAbsent(send.messageId, id);
        else if (this.confirmed.has(id)) {
          logger.warn('the phone no longer knows a message it held', { phoneMessageId: id });
          await ledger.settle(send.messageId, send.phoneNumber, {
            state: 'Failed',
            reason: interrupted,
          });
          this.forget(id);
        }
        // Neither: its hand-over is under way right now.
        else noteAbsent(send.messageId, null);
        continue;
      }
      if (send.state === 'Processed') {
        if (this.unsure.delete(id))
          logger.info('a hand-over from before a restart or an unanswered POST is on the phone', {
            phoneMessageId: id,
          });
        this.confirm(id);
        noteAbsent(send.messageId, null);
      }
      const outcome = outcomeOf(message, send.phoneNumber);
      if (!outcome || outcome.state === send.state) continue;
      await ledger.settle(send.messageId, send.phoneNumber, outcome);
      if (outcome.state !== 'Sent') this.forget(id);
      else this.confirmed.delete(id);
      this.deps.changed();
    }
    for (const [messageId, ids] of absent) {
      if (ids === null) continue;
      logger.info('a hand-over never reached the phone; back to the queue', { messageId });
      for (const id of ids) this.unsure.delete(id);
      await ledger.requeue(messageId);
      this.deps.changed();
    }
  }

  /** A state a webhook brought: applied at once, the next poll confirms it. */
  async applyWebhookState(send: OutstandingSend, outcome: PhoneOutcome): Promise<void> {
    await this.deps.ledger.settle(send.messageId, send.phoneNumber, outcome);
    if (outcome.state !== 'Sent') this.forget(phoneMessageId(send.messageId, send.recipientIndex));
    this.deps.changed();
  }
}
