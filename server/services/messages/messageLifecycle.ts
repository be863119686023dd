import type { Clock } from '../../clock/clock.js';
import type { DeliveryReport } from '../../contract/domain/device.js';
import { deliveryFailed, type FailureReason, reportLost } from '../../contract/domain/failureTexts.js';
import type { HeldMessageOutcomes, MessageHolder } from '../../contract/domain/heldMessages.js';
import {
  aggregateState,
  isFinalRecipientState,
  type MessageRecord,
  type RecipientRecord,
} from '../../contract/domain/message.js';
import { shownText } from '../../contract/domain/shownText.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { MessageRepository } from '../../store/repositories.js';
import type { EventBus } from '../events/eventBus.js';

/**
 * How long after its send a status report is still matched after a restart. SMSCs keep trying
 * for the validity period, days at most in practice; the 8-bit TP-MR has wrapped round many
 * times by then anyway. Without a bound every Sent message of the history would be read at start.
 */
const reportWaitMs = 7 * 24 * 60 * 60_000;

/**
 * Every change of a message's state goes through here, so the aggregate state, the `states`
 * timestamps, persistence and the `message:updated` event can never disagree.
 *
 * Read-modify-write is safe without locks: the repository applies `update` to memory
 * synchronously, and nothing awaits between the read and that call.
 */
export class MessageLifecycle implements HeldMessageOutcomes {
  /** "<deviceId>/<reference>/<recipient>" → message id, for matching status reports. */
  private readonly reportIndex = new Map<string, string>();
  /**
   * Reports that came before their message was Sent: the first parts of a long message are
   * reported while the last is still being sent. Applied once the message is Sent; kept
   * `earlyReportMs` at most, `maxEarlyReports` in all.
   */
  private readonly earlyReports = new Map<string, { report: DeliveryReport; at: number }>();
  /** Sent messages `markReportsRefused` has looked at: no second read while they stay Sent. */
  private readonly refusalSeen = new Set<string>();
  private readonly holders = new Set<MessageHolder>();

  constructor(
    private readonly repository: MessageRepository,
    private readonly events: EventBus,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    for (const message of repository.inState('Sent', clock.now() - reportWaitMs))
      this.indexReferences(message);
  }

  /**
   * Pending → Processed for every still-pending recipient: the message is handed to a modem.
   * A hand-over to the simulator marks the message for good, so its record says so.
   */
  markProcessed(messageId: string, deviceId: string, viaSimulator = false): Promise<MessageRecord> {
    return this.change(messageId, (message) => {
      message.deviceId = deviceId;
      if (viaSimulator) message.simulated = true;
      for (const recipient of message.recipients) {
        if (recipient.state === 'Pending') recipient.state = 'Processed';
      }
    });
  }

  markRecipientSent(messageId: string, phoneNumber: string, references: number[]): Promise<MessageRecord> {
    return this.change(messageId, (message) => {
      const recipient = this.recipient(message, phoneNumber);
      if (isFinalRecipientState(recipient.state)) return;
      recipient.state = 'Sent';
      recipient.parts = references.map((reference) => ({ reference }));
      delete recipient.error;
      delete recipient.failure;
    });
  }

  markRecipientFailed(messageId: string, phoneNumber: string, reason: FailureReason): Promise<MessageRecord> {
    return this.change(messageId, (message) => {
      const recipient = this.recipient(message, phoneNumber);
      if (isFinalRecipientState(recipient.state)) return;
      recipient.state = 'Failed';
      recipient.error = reason.error;
      recipient.failure = reason.failure;
    });
  }

  /** A device that reports delivery itself (an Android phone's app) says this recipient got it. */
  markRecipientDelivered(messageId: string, phoneNumber: string): Promise<MessageRecord> {
    return this.change(messageId, (message) => {
      const recipient = this.recipient(message, phoneNumber);
      if (isFinalRecipientState(recipient.state)) return;
      recipient.state = 'Delivered';
      delete recipient.error;
      delete recipient.failure;
    });
  }

  /** A recipient a holding device dropped from its queue before sending it (our cancel, or its own). */
  markRecipientCancelled(messageId: string, phoneNumber: string): Promise<MessageRecord> {
    return this.change(messageId, (message) => {
      const recipient = this.recipient(message, phoneNumber);
      if (isFinalRecipientState(recipient.state)) return;
      recipient.state = 'Cancelled';
      delete recipient.error;
      delete recipient.failure;
    });
  }

  /** A device with a queue of its own joins (`MessageHolder`); returns the way to leave. */
  addHolder(holder: MessageHolder): () => void {
    this.holders.add(holder);
    return () => this.holders.delete(holder);
  }

  /** The holder whose own queue has this Processed message, if any. */
  holderOf(message: MessageRecord): MessageHolder | undefined {
    if (message.state !== 'Processed') return undefined;
    for (const holder of this.holders) if (holder.holds(message)) return holder;
    return undefined;
  }

  /** Fails every recipient that is not final yet (TTL expiry, crash recovery). */
  failAll(messageId: string, reason: FailureReason): Promise<MessageRecord> {
    return this.change(messageId, (message) => {
      for (const recipient of message.recipients) {
        if (isFinalRecipientState(recipient.state)) continue;
        recipient.state = 'Failed';
        recipient.error = reason.error;
        recipient.failure = reason.failure;
      }
    });
  }

  /**
   * Processed → Pending for every recipient still Processed: back in the queue, on any modem.
   * For a hand-over the modem refused (nothing was sent) and, when the user opted in, for sends
   * a crash interrupted.
   */
  requeue(messageId: string): Promise<MessageRecord> {
    return this.change(messageId, (message) => {
      delete message.deviceId;
      for (const recipient of message.recipients) {
        if (recipient.state === 'Processed') recipient.state = 'Pending';
      }
      // The simulator refused it before anything was sent: nothing went through it.
      if (message.recipients.every((recipient) => recipient.state === 'Pending')) delete message.simulated;
    });
  }

  /**
   * Cancel rules (docs/decisions.md#message-states): Pending → Cancelled; already Cancelled → unchanged;
   * Processed in a holder's own queue (an Android phone) → the holder is asked to drop it, as the
   * app's own cancel does while it is Pending there; anything else → InvalidState naming the
   * state; unknown → NotFound.
   */
  async cancel(messageId: string): Promise<MessageRecord> {
    const current = this.repository.get(messageId);
    if (!current) throw new GatewayError(ErrorCode.NotFound, `message ${messageId} not found`);
    if (current.state === 'Cancelled') return current;
    const holder = this.holderOf(current);
    if (holder) {
      await holder.cancel(current);
      return this.repository.get(messageId) ?? current;
    }
    if (current.state !== 'Pending') {
      throw new GatewayError(
        ErrorCode.InvalidState,
        `message ${messageId} is ${current.state} and can no longer be cancelled`,
      );
    }
    return this.change(messageId, (message) => {
      for (const recipient of message.recipients) {
        if (recipient.state === 'Pending') recipient.state = 'Cancelled';
      }
    });
  }

  /**
   * Our extension (docs/desk.md "Scheduling"): a new time and/or text for a message no modem has
   * been handed yet. Anything already handed over (even once, then re-queued) is refused with
   * InvalidState, as is a new text for a data or end-to-end encrypted message.
   */
  editScheduled(messageId: string, edit: { scheduleAt?: number; text?: string }): Promise<MessageRecord> {
    const current = this.repository.get(messageId);
    if (!current)
      throw new GatewayError(ErrorCode.NotFound, `message ${messageId} not found`, { field: 'id' });
    const untouched =
      current.states.Processed === undefined &&
      current.recipients.every((recipient) => recipient.state === 'Pending');
    if (!untouched) {
      throw new GatewayError(
        ErrorCode.InvalidState,
        `message ${messageId} is ${current.state} and has been handed to a modem; it can no longer be edited`,
      );
    }
    if (edit.text !== undefined && (current.content.kind !== 'text' || current.isEncrypted)) {
      throw new GatewayError(ErrorCode.InvalidState, 'text: only a plain text message can get a new text', {
        field: 'text',
      });
    }
    return this.change(messageId, (message) => {
      if (edit.scheduleAt !== undefined) message.scheduleAt = edit.scheduleAt;
      if (edit.text !== undefined) message.content = { kind: 'text', text: edit.text };
    });
  }

  /**
   * TS 23.040 §9.2.3.15 TP-Status: < 0x20 delivered; 0x20–0x3F the SC is still trying
   * (stay Sent); ≥ 0x40 permanent or given-up failure.
   * Returns false when the report matches no message we sent (logged, not fatal).
   */
  async applyDeliveryReport(report: DeliveryReport): Promise<boolean> {
    const key = referenceKey(report.deviceId, report.reference, report.recipient);
    const messageId = this.reportIndex.get(key);
    const message = messageId ? this.repository.get(messageId) : undefined;
    if (!messageId || !message) {
      this.keepEarly(key, report);
      return false;
    }
    await this.change(messageId, (draft) => {
      const recipient = draft.recipients.find(
        (candidate) =>
          samePhoneNumber(candidate.phoneNumber, report.recipient) &&
          candidate.parts?.some((part) => part.reference === report.reference),
      );
      if (recipient?.state !== 'Sent' || !recipient.parts) return;
      for (const part of recipient.parts) {
        if (part.reference === report.reference) part.reportStatus = report.status;
      }
      if (report.status >= 0x40) {
        const failed = deliveryFailed(report.status);
        recipient.state = 'Failed';
        recipient.error = failed.error;
        recipient.failure = failed.failure;
      } else if (
        recipient.parts.every((part) => part.reportStatus !== undefined && part.reportStatus < 0x20)
      ) {
        recipient.state = 'Delivered';
        delete recipient.error;
        delete recipient.failure;
      }
    });
    return true;
  }

  /**
   * The report memory of `deviceId` was found full: every recipient of its messages still
   * waiting for a delivery report says the report may be lost (`reportLost`), instead of
   * staying Sent with no word. Messages looked at once are skipped until they leave Sent.
   */
  async markReportsRefused(deviceId: string): Promise<void> {
    const waiting = new Set<string>();
    for (const [key, messageId] of this.reportIndex) {
      if (key.startsWith(`${deviceId}/`) && !this.refusalSeen.has(messageId)) waiting.add(messageId);
    }
    const changes: Promise<MessageRecord>[] = [];
    for (const messageId of waiting) {
      this.refusalSeen.add(messageId);
      const message = this.repository.get(messageId);
      if (message?.deviceId !== deviceId || !message.withDeliveryReport) continue;
      // Not awaited one by one: every update joins the same group commit.
      changes.push(
        this.change(messageId, (draft) => {
          for (const recipient of draft.recipients) {
            if (
              recipient.state === 'Sent' &&
              recipient.parts?.some((part) => part.reportStatus === undefined)
            ) {
              recipient.error = reportLost.error;
              recipient.failure = reportLost.failure;
            }
          }
        }),
      );
    }
    await Promise.all(changes);
  }

  private recipient(message: MessageRecord, phoneNumber: string): RecipientRecord {
    const recipient = message.recipients.find((candidate) => candidate.phoneNumber === phoneNumber);
    if (!recipient) {
      throw new GatewayError(ErrorCode.NotFound, `message ${message.id} has no recipient ${phoneNumber}`);
    }
    return recipient;
  }

  private async change(messageId: string, mutate: (draft: MessageRecord) => void): Promise<MessageRecord> {
    const current = this.repository.get(messageId);
    if (!current) throw new GatewayError(ErrorCode.NotFound, `message ${messageId} not found`);
    const draft = structuredClone(current);
    mutate(draft);
    forgetSpentCode(draft);
    const now = this.clock.now();
    for (const [index, recipient] of draft.recipients.entries()) {
      if (recipient.state !== current.recipients[index]?.state) recipient.updatedAt = now;
    }
    draft.state = aggregateState(draft.recipients);
    if (draft.states[draft.state] === undefined) draft.states[draft.state] = now;
    if (JSON.stringify(draft) === JSON.stringify(current)) return current;
    const change = { message: draft, previous: current, previousState: current.state };
    // The webhook outbox writes its deliveries into the batch the update is in.
    const written = this.repository.update(draft, () => this.events.record('message:updated', change));
    const early = this.indexReferences(draft);
    await written;
    this.events.emit('message:updated', change);
    for (const report of early) await this.applyDeliveryReport(report);
    return this.repository.get(messageId) ?? draft;
  }

  /** Returns the reports that came early for references it just indexed. */
  private indexReferences(message: MessageRecord): DeliveryReport[] {
    if (!message.deviceId) return [];
    const early: DeliveryReport[] = [];
    for (const recipient of message.recipients) {
      for (const part of recipient.parts ?? []) {
        if (part.reference === undefined) continue;
        const key = referenceKey(message.deviceId, part.reference, recipient.phoneNumber);
        if (recipient.state === 'Sent') {
          this.reportIndex.set(key, message.id);
          const waiting = this.earlyReports.get(key);
          if (waiting && part.reportStatus === undefined) early.push(waiting.report);
          this.earlyReports.delete(key);
        } else if (this.reportIndex.get(key) === message.id) this.reportIndex.delete(key);
      }
    }
    if (message.state !== 'Sent') this.refusalSeen.delete(message.id);
    return early;
  }

  /** A report for no Sent message yet: kept a while, in case its message is still being sent. */
  private keepEarly(key: string, report: DeliveryReport): void {
    const now = this.clock.now();
    for (const [kept, { at }] of this.earlyReports) {
      if (at > now - earlyReportMs && this.earlyReports.size < maxEarlyReports) break;
      this.earlyReports.delete(kept);
    }
    this.earlyReports.set(key, { report, at: now });
    this.logger.info('status report matches no sent message yet: kept until its message is sent', {
      ...report,
    });
  }
}

/**
 * How long a report may wait for its message to be Sent. A long message's first parts are
 * reported while its last is sent, seconds or a minute later at the radio's pace; a TP-MR (one
 * octet) comes round to the same number on the same modem far later than this.
 */
const earlyReportMs = 5 * 60_000;
/** Early reports kept at most: a modem reporting messages we never sent cannot grow memory. */
const maxEarlyReports = 1_000;

/** Status reports carry the recipient as the SMSC saw it: compare digits only. */
function samePhoneNumber(left: string, right: string): boolean {
  return digits(left) === digits(right);
}

function referenceKey(deviceId: string, reference: number, recipient: string): string {
  return `${deviceId}/${reference}/${digits(recipient)}`;
}

function digits(phoneNumber: string): string {
  return phoneNumber.replace(/\D/g, '');
}

/**
 * A verification code's SMS that no recipient can be sent again (each Sent, Delivered, Failed or
 * Cancelled) keeps only its masked text: from then on the stored message no longer holds the
 * code, whoever reads the database.
 */
function forgetSpentCode(message: MessageRecord): void {
  if (message.purpose !== 'verification' || message.content.kind !== 'text') return;
  if (
    !message.recipients.every(
      (recipient) => recipient.state === 'Sent' || isFinalRecipientState(recipient.state),
    )
  ) {
    return;
  }
  message.content = { kind: 'text', text: shownText(message, message.content.text) };
}
