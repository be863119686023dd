import type { MessageRecord } from '../../contract/domain/message.js';
import { MessageStateTlv } from './smppStatus.js';
import { receiptDate } from './smppTime.js';

/** What a submit_sm asked for that its receipt needs later (kept beside the message). */
export interface SubmitMemo {
  /** The message id. */
  id: string;
  /** Who submitted it (domain/caller.ts `callerKey`): only a session of theirs gets the receipt. */
  owner?: string;
  /** Memos kept before `owner`: the system_id that submitted, which a session must bind with. */
  systemId?: string;
  /** §5.2.17 bits 1–0: 1 a receipt on success or failure, 2 on failure only. */
  receiptWanted: 1 | 2;
  sourceAddr: string;
  destinationAddr: string;
  submittedAt: number;
  /** The text's first 20 characters, for the receipt's `text:` field. */
  textStart: string;
}

export interface ReceiptOutcome {
  /** The 7-character `stat:` of SMPP 3.4 Appendix B, Table B-2. */
  stat: 'DELIVRD' | 'EXPIRED' | 'DELETED' | 'UNDELIV' | 'REJECTD';
  messageState: number;
  err: number;
}

/** The receipt a message's final state owes, or undefined while it is not final. */
export function receiptOutcome(message: MessageRecord): ReceiptOutcome | undefined {
  const recipient = message.recipients[0];
  switch (message.state) {
    case 'Delivered':
      return { stat: 'DELIVRD', messageState: MessageStateTlv.DELIVERED, err: 0 };
    case 'Cancelled':
      return { stat: 'DELETED', messageState: MessageStateTlv.DELETED, err: 0 };
    case 'Failed':
      if (recipient?.failure?.code === 'ttl-expired')
        return { stat: 'EXPIRED', messageState: MessageStateTlv.EXPIRED, err: 0 };
      if (recipient?.failure?.code === 'opted-out')
        return { stat: 'REJECTD', messageState: MessageStateTlv.REJECTED, err: 0 };
      // The modem's +CMS/+CME code or the report's TP-Status: the network's own error number.
      return {
        stat: 'UNDELIV',
        messageState: MessageStateTlv.UNDELIVERABLE,
        err: recipient?.failure?.modemCode ?? 0,
      };
    default:
      return undefined;
  }
}

/**
 * The receipt's short_message (SMPP 3.4 Appendix B): "id:… sub:001 dlvrd:001 submit date:…
 * done date:… stat:DELIVRD err:000 text:…", dates as YYMMDDhhmm. The receipt is ASCII: a
 * character of the text outside it shows as "?".
 */
export function receiptText(memo: SubmitMemo, outcome: ReceiptOutcome, doneAt: number): string {
  const delivered = outcome.stat === 'DELIVRD' ? '001' : '000';
  return (
    `id:${memo.id} sub:001 dlvrd:${delivered} submit date:${receiptDate(memo.submittedAt)} ` +
    `done date:${receiptDate(doneAt)} stat:${outcome.stat} err:${String(outcome.err).padStart(3, '0')} ` +
    `text:${memo.textStart.replace(/[^\x20-\x7e]/g, '?')}`
  );
}

/**
 * query_sm's error_code is one octet (§4.8.2). A +CMS code up to 255 is the network's own cause
 * (TS 24.011 RP-cause, TS 23.040 TP-FCS) and fits; 300–500 are the modem's own errors (TS 27.005
 * §3.2.5), told as 0xFF, TP-FCS "unspecified error cause".
 */
export function networkErrorOctet(code: number): number {
  return Number.isInteger(code) && code >= 0 && code <= 0xff ? code : 0xff;
}

/** §5.2.28 message_state for query_sm: what the message is now. */
export function messageStateOf(message: MessageRecord): number {
  const outcome = receiptOutcome(message);
  if (outcome) return outcome.messageState;
  // Pending, Processed, and Sent while a delivery report is awaited or none was asked for.
  return message.state === 'Sent' && !message.withDeliveryReport
    ? MessageStateTlv.ACCEPTED
    : MessageStateTlv.ENROUTE;
}
