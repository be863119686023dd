import { createHash } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import { type Caller, callerKey } from '../../contract/domain/caller.js';
import type { MessageRecord } from '../../contract/domain/message.js';
import { ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { MessageService } from '../../services/messages/messageService.js';
import type { KeyedCollection } from '../../store/keyedCollection.js';
import { messageStateOf, networkErrorOctet, receiptOutcome, type SubmitMemo } from './deliveryReceipt.js';
import { contentOfParts, readSubmittedPart, type SmppEncoding, type SubmittedPart } from './shortMessage.js';
import { phoneNumberOfAddress } from './smppAddress.js';
import type { SmppPdu } from './smppPdu.js';
import { SmppStatus } from './smppStatus.js';
import { absoluteSmppTime, parseSmppTime } from './smppTime.js';

/** The parts of a concatenated submit received so far, kept durably until the last arrives. */
export interface HeldParts {
  /** caller|source|destination|reference (callerKey: one login's parts never join another's) */
  id: string;
  messageId: string;
  encoding: SmppEncoding;
  total: number;
  /** Base64 octets by sequence number. */
  parts: Record<string, string>;
  port?: number;
  /** The first part's submit (destination, times, receipt) stands for the message. */
  first: SubmitOptions;
  receivedAt: number;
}

/** A submit queued lately, by what it asked: a client that sends it again gets this id. */
export interface RecentSubmit {
  /** A hash of the login, source, destination and content. */
  id: string;
  messageId: string;
  at: number;
}

interface SubmitOptions {
  phoneNumber: string;
  destinationAddr: string;
  sourceAddr: string;
  receiptWanted: 0 | 1 | 2;
  validUntil?: number;
  scheduleAt?: number;
}

export interface SmppSubmissionsDeps {
  messages: Pick<MessageService, 'prepareAll' | 'enqueuePrepared' | 'get' | 'cancel'>;
  heldParts: KeyedCollection<HeldParts>;
  recentSubmits: KeyedCollection<RecentSubmit>;
  /** Keeps what the receipt will need (SmppDeliveries.rememberSubmit). */
  rememberSubmit: (memo: SubmitMemo) => Promise<void>;
  newMessageId: () => string;
  defaultCountry: () => string | undefined;
  clock: Clock;
  logger: Logger;
}

type Answer = { status: number; fields?: Record<string, unknown> };

/**
 * How long the parts of a concatenated submit wait for the rest: clients send the parts of one
 * message back to back, so what waits this long is never completed and is dropped.
 */
export const heldPartsTtlMs = 24 * 3_600_000;

/**
 * How long a submit is remembered: SMPP has no idempotency key, and a client whose
 * submit_sm_resp a crash or a broken connection cut off sends the same submit again after it
 * rebinds, seconds later. The same login, source, destination and content within this window
 * is the same message and gets the first one's id; the same text to the same number sent on
 * purpose comes later than this.
 */
export const resubmitWindowMs = 2 * 60_000;

/** Concatenated submits waiting for parts, per login: past it a new one is ESME_RMSGQFUL. */
export const maxHeldMessagesPerLogin = 1_000;

const fail = (status: number, reason: string, logger: Logger): Answer => {
  logger.info('SMPP request refused', { status: `0x${status.toString(16)}`, reason });
  return { status };
};

/**
 * submit_sm, query_sm and cancel_sm (SMPP 3.4 §4.4, §4.8, §4.9) on the gateway's queue. A
 * submit is queued through the same MessageService as POST /messages, and its submit_sm_resp
 * carries our message id only once the message (or, for a part of a concatenated one, the
 * part) is durable.
 */
export class SmppSubmissions {
  private lastPruneAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: SmppSubmissionsDeps) {}

  async request(pdu: SmppPdu, caller: Caller): Promise<Answer> {
    switch (pdu.command) {
      case 'submit_sm':
        return this.submit(pdu, caller);
      case 'query_sm':
        return this.query(pdu, caller);
      case 'cancel_sm':
        return this.cancel(pdu, caller);
      default:
        return { status: SmppStatus.ESME_RINVCMDID };
    }
  }

  private async submit(pdu: SmppPdu, caller: Caller): Promise<Answer> {
    const { fields, tlvs } = pdu;
    const { logger } = this.deps;
    const options = this.submitOptions(fields);
    if ('status' in options) return fail(options.status, options.reason, logger);
    const read = readSubmittedPart({
      esmClass: Number(fields.esm_class ?? 0),
      dataCoding: Number(fields.data_coding ?? 0),
      shortMessage: asBytes(fields.short_message),
      messagePayload: tlvs.message_payload === undefined ? undefined : asBytes(tlvs.message_payload),
      sar:
        tlvs.sar_msg_ref_num !== undefined
          ? {
              reference: Number(tlvs.sar_msg_ref_num),
              total: Number(tlvs.sar_total_segments ?? 0),
              sequence: Number(tlvs.sar_segment_seqnum ?? 0),
            }
          : undefined,
      destinationPort: tlvs.dest_port === undefined ? undefined : Number(tlvs.dest_port),
    });
    if (!read.ok) return fail(read.status, read.reason, logger);
    const { part } = read;
    if (!part.concatenation) return this.queue(this.deps.newMessageId(), part, [part.bytes], options, caller);
    return this.holdPart(part, options, caller);
  }

  private submitOptions(fields: Record<string, unknown>): SubmitOptions | { status: number; reason: string } {
    const now = this.deps.clock.now();
    const destinationAddr = String(fields.destination_addr ?? '');
    const phoneNumber = phoneNumberOfAddress(
      destinationAddr,
      Number(fields.dest_addr_ton ?? 0),
      this.deps.defaultCountry(),
    );
    if (!phoneNumber)
      return {
        status: SmppStatus.ESME_RINVDSTADR,
        reason: `destination_addr "${destinationAddr}" is no phone number`,
      };
    const validity = parseSmppTime(String(fields.validity_period ?? ''), now);
    if (!validity.ok) return { status: SmppStatus.ESME_RINVEXPIRY, reason: validity.reason };
    if (validity.at !== undefined && validity.at <= now) {
      return { status: SmppStatus.ESME_RINVEXPIRY, reason: 'validity_period has already passed' };
    }
    const schedule = parseSmppTime(String(fields.schedule_delivery_time ?? ''), now);
    if (!schedule.ok) return { status: SmppStatus.ESME_RINVSCHED, reason: schedule.reason };
    // §5.2.17 bits 1–0: 0 no receipt, 1 on success or failure, 2 on failure only (3 is reserved).
    const receipt = Number(fields.registered_delivery ?? 0) & 0x03;
    return {
      phoneNumber,
      destinationAddr,
      sourceAddr: String(fields.source_addr ?? ''),
      receiptWanted: receipt === 1 || receipt === 2 ? receipt : 0,
      ...(validity.at !== undefined ? { validUntil: validity.at } : {}),
      ...(schedule.at !== undefined && schedule.at > now ? { scheduleAt: schedule.at } : {}),
    };
  }

  /**
   * A part of a concatenated message: kept durably (answered with the id the whole message
   * will have) until the last one arrives, which queues the message and drops the parts in one
   * commit.
   */
  private async holdPart(part: SubmittedPart, options: SubmitOptions, caller: Caller): Promise<Answer> {
    const concatenation = part.concatenation;
    if (!concatenation) return { status: SmppStatus.ESME_RSYSERR };
    const owner = callerKey(caller);
    const key = [owner, options.sourceAddr, options.destinationAddr, concatenation.reference].join('|');
    const earlier = this.deps.heldParts.get(key);
    if (!earlier && this.heldBy(owner) >= maxHeldMessagesPerLogin) {
      return fail(
        SmppStatus.ESME_RMSGQFUL,
        `${maxHeldMessagesPerLogin} concatenated messages of this login wait for their parts`,
        this.deps.logger,
      );
    }
    const held: HeldParts = earlier ?? {
      id: key,
      messageId: this.deps.newMessageId(),
      encoding: part.encoding,
      total: concatenation.total,
      parts: {},
      first: options,
      receivedAt: this.deps.clock.now(),
    };
    if (held.total !== concatenation.total || held.encoding !== part.encoding) {
      return fail(
        SmppStatus.ESME_RINVTLVVAL,
        'a part differs from the earlier parts in its count or data_coding',
        this.deps.logger,
      );
    }
    held.parts[String(concatenation.sequence)] = Buffer.from(part.bytes).toString('base64');
    if (part.port !== undefined) held.port = part.port;
    if (concatenation.sequence === 1) held.first = options;
    if (Object.keys(held.parts).length < held.total) {
      await this.deps.heldParts.put(held);
      return { status: SmppStatus.ESME_ROK, fields: { message_id: held.messageId } };
    }
    const bytes = Array.from({ length: held.total }, (_unused, index) =>
      Buffer.from(held.parts[String(index + 1)] ?? '', 'base64'),
    );
    const partial: SubmittedPart = {
      encoding: held.encoding,
      bytes: new Uint8Array(),
      ...(held.port !== undefined ? { port: held.port } : {}),
    };
    return this.queue(held.messageId, partial, bytes, held.first, caller, key);
  }

  /** The login's waiting concatenated messages, after dropping those that waited past their time. */
  private heldBy(owner: string): number {
    const expired = this.deps.clock.now() - heldPartsTtlMs;
    let count = 0;
    for (const held of [...this.deps.heldParts.values()]) {
      if (held.receivedAt < expired) {
        this.deps.logger.warn('SMPP parts never completed: dropped', { id: held.id, parts: held.total });
        void this.deps.heldParts.delete(held.id);
      } else if (held.id.startsWith(`${owner}|`)) count++;
    }
    return count;
  }

  private async queue(
    messageId: string,
    part: SubmittedPart,
    bytes: readonly Uint8Array[],
    options: SubmitOptions,
    caller: Caller,
    heldKey?: string,
  ): Promise<Answer> {
    const { logger } = this.deps;
    const content = contentOfParts(part.encoding, bytes, part.port);
    if (!content.ok) return fail(content.status, content.reason, logger);
    const resubmitKey = this.resubmitKey(caller, options, content.content);
    const earlier = this.deps.recentSubmits.get(resubmitKey);
    if (earlier && earlier.at > this.deps.clock.now() - resubmitWindowMs) {
      logger.info('SMPP submit sent again: answered with its first id', { id: earlier.messageId });
      if (heldKey !== undefined) await this.deps.heldParts.delete(heldKey);
      return { status: SmppStatus.ESME_ROK, fields: { message_id: earlier.messageId } };
    }
    let records: MessageRecord[];
    try {
      records = this.deps.messages.prepareAll(
        [
          {
            message: {
              id: messageId,
              phoneNumbers: [options.phoneNumber],
              ...(content.content.kind === 'text'
                ? { textMessage: { text: content.content.text } }
                : { dataMessage: { data: content.content.data, port: content.content.port } }),
              withDeliveryReport: options.receiptWanted !== 0,
              validUntil: options.validUntil,
              scheduleAt: options.scheduleAt,
            },
            skipPhoneValidation: false,
            deviceActiveWithinHours: 0,
            burst: `smpp ${callerKey(caller)}`,
          },
        ],
        caller,
      );
    } catch (error) {
      if (isGatewayError(error, ErrorCode.Conflict)) {
        return { status: SmppStatus.ESME_ROK, fields: { message_id: messageId } };
      }
      return fail(statusOf(error), error instanceof Error ? error.message : String(error), logger);
    }
    // One commit: the message, the memo its receipt needs, and the end of its held parts.
    const writes: Promise<void>[] = [];
    if (options.receiptWanted !== 0) {
      writes.push(
        this.deps.rememberSubmit({
          id: messageId,
          owner: callerKey(caller),
          receiptWanted: options.receiptWanted,
          sourceAddr: options.sourceAddr,
          destinationAddr: options.destinationAddr,
          submittedAt: this.deps.clock.now(),
          textStart: content.content.kind === 'text' ? content.content.text.slice(0, 20) : '',
        }),
      );
    }
    if (heldKey !== undefined) writes.push(this.deps.heldParts.delete(heldKey));
    writes.push(this.deps.recentSubmits.put({ id: resubmitKey, messageId, at: this.deps.clock.now() }));
    writes.push(this.deps.messages.enqueuePrepared(records));
    await Promise.all(writes);
    this.pruneRecentSubmits();
    return { status: SmppStatus.ESME_ROK, fields: { message_id: messageId } };
  }

  private resubmitKey(caller: Caller, options: SubmitOptions, content: unknown): string {
    return createHash('sha256')
      .update(JSON.stringify([callerKey(caller), options.sourceAddr, options.destinationAddr, content]))
      .digest('base64url');
  }

  /** At most once a window: what was remembered longer than the window is forgotten. */
  private pruneRecentSubmits(): void {
    const now = this.deps.clock.now();
    if (now - this.lastPruneAt < resubmitWindowMs) return;
    this.lastPruneAt = now;
    for (const recent of [...this.deps.recentSubmits.values()]) {
      if (recent.at <= now - resubmitWindowMs) void this.deps.recentSubmits.delete(recent.id);
    }
  }

  /** Another login's message is not found for this one, as over HTTP. */
  private query(pdu: SmppPdu, caller: Caller): Answer {
    const id = String(pdu.fields.message_id ?? '');
    let message: MessageRecord;
    try {
      message = this.deps.messages.get(id, caller);
    } catch {
      return { status: SmppStatus.ESME_RQUERYFAIL };
    }
    const final = receiptOutcome(message);
    const finalAt = final ? message.states[message.state] : undefined;
    return {
      status: SmppStatus.ESME_ROK,
      fields: {
        message_id: id,
        final_date: finalAt === undefined ? '' : absoluteSmppTime(finalAt),
        message_state: messageStateOf(message),
        error_code: networkErrorOctet(final?.err ?? 0),
      },
    };
  }

  private async cancel(pdu: SmppPdu, caller: Caller): Promise<Answer> {
    const id = String(pdu.fields.message_id ?? '');
    try {
      await this.deps.messages.cancel(id, caller);
      return { status: SmppStatus.ESME_ROK };
    } catch (error) {
      return fail(
        SmppStatus.ESME_RCANCELFAIL,
        error instanceof Error ? error.message : String(error),
        this.deps.logger,
      );
    }
  }
}

function asBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return Buffer.from(value, 'latin1');
  return new Uint8Array();
}

/** The submit_sm_resp status of a refused enqueue. */
function statusOf(error: unknown): number {
  if (isGatewayError(error, ErrorCode.QueueFull)) return SmppStatus.ESME_RTHROTTLED;
  if (isGatewayError(error, ErrorCode.MessageTooLong)) return SmppStatus.ESME_RINVMSGLEN;
  if (isGatewayError(error, ErrorCode.QuotaExceeded)) return SmppStatus.ESME_RTHROTTLED;
  if (isGatewayError(error)) return SmppStatus.ESME_RSUBMITFAIL;
  return SmppStatus.ESME_RSYSERR;
}
