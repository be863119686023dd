import {
  deviceGone,
  type FailureReason,
  interrupted,
  modemRefused,
  optedOut,
  sendFailed,
} from '../../contract/domain/failureTexts.js';
import type { MessageRecord, MmsAttachment } from '../../contract/domain/message.js';
import type { OutboundModem } from '../../devices/pool/outboundModem.js';
import { describeError, ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { MessageLifecycle } from '../messages/messageLifecycle.js';

/** What a modem made of one recipient's send; 'held': in the member's own queue, still Processed. */
type SendOutcome = { references: number[] } | { failure: FailureReason } | 'modem-unavailable' | 'held';

/** An outcome recorded as the recipient's state. */
type RecordedOutcome = Exclude<SendOutcome, 'modem-unavailable' | 'held'>;

export interface MessageDeliveryDeps {
  lifecycle: MessageLifecycle;
  logger: Logger;
  /** Whether a recipient (its number as dialled) is on the opt-out list; absent: nobody is. */
  isOptedOut?: (phoneNumber: string) => boolean;
  /** The modem refused with ModemUnavailable: leave it alone for a while. */
  refused: (deviceId: string) => void;
  /** The modem answered its last recipient of this hand-over: it is free again. */
  answered: (deviceId: string) => void;
  /** An MMS's attachments with their bytes (`MessageRepository.attachmentsOf`). */
  attachmentsOf: (messageId: string) => MmsAttachment[];
}

/**
 * One hand-over's sends, recipient by recipient, and their bookkeeping: the opt-out check,
 * the recipient states, a re-queue when the modem refused before anything was sent, and the
 * recipients a member (a phone) holds in its own queue, which stay Processed.
 */
export class MessageDelivery {
  constructor(private readonly deps: MessageDeliveryDeps) {}

  /**
   * `stored` is the copy from before `markProcessed` (its Pending recipients are this
   * hand-over's); `plain` its decrypted twin, whose numbers are dialled.
   */
  async deliver(
    modem: OutboundModem,
    stored: MessageRecord,
    plain: MessageRecord,
    simNumber: number,
    processed: Promise<MessageRecord>,
  ): Promise<void> {
    const records: Promise<unknown>[] = [];
    /** Recipients of this hand-over the member holds in its own queue (still Processed). */
    let held = 0;
    // An MMS's bytes, read once for every recipient of the hand-over.
    const attachments = plain.content.kind === 'mms' ? this.deps.attachmentsOf(stored.id) : undefined;
    try {
      await processed;
      for (const [index, recipient] of stored.recipients.entries()) {
        if (recipient.state !== 'Pending') continue;
        const phoneNumber = plain.recipients[index]?.phoneNumber ?? recipient.phoneNumber;
        if (!stored.ignoreOptOut && this.deps.isOptedOut?.(phoneNumber)) {
          records.push(this.record(stored.id, recipient.phoneNumber, { failure: optedOut }));
          continue;
        }
        const outcome = await this.sendTo(modem, stored, plain, {
          phoneNumber,
          index,
          simNumber,
          attachments,
        });
        if (outcome === 'modem-unavailable') {
          this.deps.refused(modem.deviceId);
          if (held > 0) {
            // A re-queue would take back what the member holds too, and it could be sent twice.
            this.failRest(stored, index, modem.deviceId, records);
            break;
          }
          this.deps.logger.warn('modem refused the message; re-queued', {
            messageId: stored.id,
            deviceId: modem.deviceId,
          });
          await this.deps.lifecycle.requeue(stored.id);
          break;
        }
        if (outcome === 'held') {
          held++;
          continue;
        }
        records.push(this.record(stored.id, recipient.phoneNumber, outcome));
      }
    } finally {
      this.deps.answered(modem.deviceId);
    }
    // The modem is free before these records are durable: its next hand-over's Processed mark
    // joins them in one commit instead of waiting for a commit of its own. No send
    // starts before its own Processed mark is durable, so a crash still marks exactly the sends
    // that may have left.
    await Promise.all(records);
  }

  /**
   * The member went away in the middle of a message after it took some recipients into its own
   * queue: the ones from `from` on were not sent, and fail saying so (a re-queue cannot leave
   * the held ones where they are).
   */
  private failRest(stored: MessageRecord, from: number, deviceId: string, records: Promise<unknown>[]): void {
    this.deps.logger.warn('device went away in the middle of a message; the rest is not sent', {
      messageId: stored.id,
      deviceId,
    });
    for (const recipient of stored.recipients.slice(from)) {
      if (recipient.state !== 'Pending') continue;
      records.push(this.record(stored.id, recipient.phoneNumber, { failure: deviceGone }));
    }
  }

  /** One recipient's send; the modem's answer, to be recorded as the recipient's state. */
  private async sendTo(
    modem: OutboundModem,
    stored: MessageRecord,
    plain: MessageRecord,
    to: { phoneNumber: string; index: number; simNumber: number; attachments: MmsAttachment[] | undefined },
  ): Promise<SendOutcome> {
    const { phoneNumber, index: recipientIndex, simNumber, attachments } = to;
    const sealedNumber = stored.recipients[recipientIndex]?.phoneNumber;
    try {
      const result = await modem.send({
        messageId: stored.id,
        recipient: phoneNumber,
        recipientIndex,
        content: plain.content,
        ...(attachments ? { attachments } : {}),
        ...(stored.isEncrypted && modem.passesEncrypted && sealedNumber !== undefined
          ? { encrypted: { recipient: sealedNumber, content: stored.content } }
          : {}),
        simNumber,
        requestStatusReport: stored.withDeliveryReport,
        ...(stored.validUntil === undefined ? {} : { validUntil: stored.validUntil }),
      });
      if (result.held) return 'held';
      return { references: result.references };
    } catch (error) {
      if (isGatewayError(error, ErrorCode.ModemUnavailable)) return 'modem-unavailable';
      this.deps.logger.warn('send failed', {
        messageId: stored.id,
        deviceId: modem.deviceId,
        error: describeError(error),
      });
      return { failure: sendFailure(error) };
    }
  }

  /** States are recorded under the stored (possibly encrypted) number, not the one dialled. */
  private record(messageId: string, storedPhoneNumber: string, outcome: RecordedOutcome): Promise<unknown> {
    const { lifecycle } = this.deps;
    return 'references' in outcome
      ? lifecycle.markRecipientSent(messageId, storedPhoneNumber, outcome.references)
      : lifecycle.markRecipientFailed(messageId, storedPhoneNumber, outcome.failure);
  }
}

/**
 * What a failed recipient records: the modem's own text and +CMS code for a refusal (TS 27.005
 * §3.2.5); for an unknown outcome the interruption, since the PDU may have left.
 */
function sendFailure(error: unknown): FailureReason {
  if (isGatewayError(error, ErrorCode.CmsError)) return modemRefused(error.message, error.modemCode);
  if (isGatewayError(error, ErrorCode.SendInterrupted)) return interrupted;
  const cmeCode = isGatewayError(error, ErrorCode.CmeError) ? error.modemCode : undefined;
  return sendFailed(describeError(error), cmeCode);
}
