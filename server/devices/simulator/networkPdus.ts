/**
 * The PDUs the simulated network hands the modem: SMS-DELIVERs for injected messages and
 * SMS-STATUS-REPORTs for sends that asked for one. Both carry the modem's SMSC address, as
 * messages read from a real SIM do.
 */

import type { DecodedSubmit, EncodedPdu, SubmitContent, Timestamp } from '../../contract/pdu/index.js';
import { encodeDeliver, encodeStatusReport } from '../../contract/pdu/index.js';

export interface IncomingMessage {
  sender: string;
  text?: string;
  data?: { bytes: Uint8Array; port: number };
  /** Service-centre time stamp, epoch ms (default: now). */
  at?: number;
}

/** Simulated time stamps are UTC: the SMSC's zone is not a property of the modem under test. */
function timestamp(epochMs: number): Timestamp {
  return { epochMs, timezoneOffsetMinutes: 0 };
}

function contentOf(message: IncomingMessage): SubmitContent {
  if (message.data) return { kind: 'data', bytes: message.data.bytes, destinationPort: message.data.port };
  return { kind: 'text', text: message.text ?? '' };
}

/** One SMS-DELIVER per part (TS 23.040 §9.2.2.1), concatenated with `concatReference` when long. */
export function deliverParts(
  message: IncomingMessage,
  smsc: string,
  concatReference: number,
  now: number,
): EncodedPdu[] {
  return encodeDeliver({
    sender: message.sender,
    content: contentOf(message),
    timestamp: timestamp(message.at ?? now),
    concatReference,
    smsc,
  });
}

export interface ReportedSend {
  messageReference: number;
  decoded: DecodedSubmit;
  acceptedAt: number;
}

/** TS 23.040 §9.2.2.3: the report for a send, with the SMSC's time of acceptance and of the outcome. */
export function statusReportFor(send: ReportedSend, status: number, smsc: string, now: number): EncodedPdu {
  return encodeStatusReport({
    messageReference: send.messageReference,
    recipient: send.decoded.recipient.number,
    serviceCentreTimestamp: timestamp(send.acceptedAt),
    dischargeTime: timestamp(now),
    status,
    smsc,
  });
}
