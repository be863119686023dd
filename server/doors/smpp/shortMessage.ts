import type { SmsContent } from '../../contract/domain/message.js';
import { decodeGsm7 } from '../../contract/pdu/gsm7.js';
import { SmppStatus } from './smppStatus.js';

/** How a submit_sm's octets are written (SMPP 3.4 §5.2.19 data_coding). */
export type SmppEncoding = 'gsm7' | 'ascii' | 'latin1' | 'ucs2' | 'binary';

/** One submit_sm's user data, its header taken apart. */
export interface SubmittedPart {
  encoding: SmppEncoding;
  /** The octets after any UDH. */
  bytes: Uint8Array;
  /** This part's place in a concatenated message (UDH IEI 0x00/0x08, or the SAR TLVs). */
  concatenation?: { reference: number; total: number; sequence: number };
  /** The destination port (UDH IEI 0x05/0x04, or the destination_port TLV). */
  port?: number;
}

export type PartRead = { ok: true; part: SubmittedPart } | { ok: false; status: number; reason: string };

export interface SubmitFields {
  esmClass: number;
  dataCoding: number;
  shortMessage: Uint8Array;
  messagePayload?: Uint8Array;
  sar?: { reference: number; total: number; sequence: number };
  destinationPort?: number;
}

/** §5.2.12 esm_class bit 6: the short message begins with a User Data Header. */
const udhIndicator = 0x40;

/**
 * The data_coding values we take (§5.2.19): 0 the SMSC default alphabet, which is ours to
 * define and is GSM 03.38 (one septet per octet, unpacked); 1 IA5 (ASCII); 3 Latin-1;
 * 2 and 4 8-bit binary; 8 UCS-2. Others (a message class, Cyrillic, pictograms) are refused.
 */
function encodingOf(dataCoding: number): SmppEncoding | undefined {
  switch (dataCoding) {
    case 0:
      return 'gsm7';
    case 1:
      return 'ascii';
    case 3:
      return 'latin1';
    case 2:
    case 4:
      return 'binary';
    case 8:
      return 'ucs2';
    default:
      return undefined;
  }
}

export function readSubmittedPart(fields: SubmitFields): PartRead {
  const encoding = encodingOf(fields.dataCoding);
  if (!encoding) {
    return {
      ok: false,
      status: SmppStatus.ESME_RINVDCS,
      reason: `data_coding ${fields.dataCoding} is not supported`,
    };
  }
  const payload =
    fields.messagePayload && fields.messagePayload.length > 0 ? fields.messagePayload : undefined;
  if (payload && fields.shortMessage.length > 0) {
    // §5.3.2.32: message_payload goes with sm_length 0.
    return {
      ok: false,
      status: SmppStatus.ESME_RINVTLVVAL,
      reason: 'both short_message and message_payload hold text',
    };
  }
  let bytes = payload ?? fields.shortMessage;
  let concatenation = fields.sar;
  let port = fields.destinationPort;
  if (fields.esmClass & udhIndicator) {
    const header = readUdh(bytes);
    if (!header) return { ok: false, status: SmppStatus.ESME_RINVESMCLASS, reason: 'the UDH is malformed' };
    bytes = bytes.subarray(header.length);
    concatenation = header.concatenation ?? concatenation;
    port = header.port ?? port;
  }
  if (
    concatenation &&
    (concatenation.total < 1 || concatenation.sequence < 1 || concatenation.sequence > concatenation.total)
  ) {
    return {
      ok: false,
      status: SmppStatus.ESME_RINVTLVVAL,
      reason: 'the concatenation header counts parts wrongly',
    };
  }
  return {
    ok: true,
    part: {
      encoding,
      bytes,
      ...(concatenation && concatenation.total > 1 ? { concatenation } : {}),
      ...(port !== undefined ? { port } : {}),
    },
  };
}

/** TS 23.040 §9.2.3.24: the UDH's length octet, then information elements (IEI, length, data). */
function readUdh(
  bytes: Uint8Array,
): { length: number; concatenation?: SubmittedPart['concatenation']; port?: number } | undefined {
  const headerLength = bytes[0];
  if (headerLength === undefined || headerLength + 1 > bytes.length) return undefined;
  const result: { length: number; concatenation?: SubmittedPart['concatenation']; port?: number } = {
    length: headerLength + 1,
  };
  let offset = 1;
  while (offset < headerLength + 1) {
    const iei = bytes[offset];
    const length = bytes[offset + 1];
    if (iei === undefined || length === undefined || offset + 2 + length > headerLength + 1) return undefined;
    const data = bytes.subarray(offset + 2, offset + 2 + length);
    // §9.2.3.24.1: IEI 0x00 carries an 8-bit reference; §9.2.3.24.8: IEI 0x08 a 16-bit one.
    if (iei === 0x00 && length === 3) {
      result.concatenation = { reference: data[0] ?? 0, total: data[1] ?? 0, sequence: data[2] ?? 0 };
    } else if (iei === 0x08 && length === 4) {
      result.concatenation = {
        reference: ((data[0] ?? 0) << 8) | (data[1] ?? 0),
        total: data[2] ?? 0,
        sequence: data[3] ?? 0,
      };
    } else if (iei === 0x05 && length === 4) {
      // §9.2.3.24.4: 16-bit application ports, destination first.
      result.port = ((data[0] ?? 0) << 8) | (data[1] ?? 0);
    } else if (iei === 0x04 && length === 2) {
      result.port = data[0];
    }
    offset += 2 + length;
  }
  return result;
}

/**
 * The message of all its parts' octets, joined before decoding: a UCS-2 surrogate pair or a
 * GSM escape may be split across two parts.
 */
export function contentOfParts(
  encoding: SmppEncoding,
  parts: readonly Uint8Array[],
  port: number | undefined,
): { ok: true; content: SmsContent } | { ok: false; status: number; reason: string } {
  const bytes = Buffer.concat(parts.map((part) => Buffer.from(part)));
  switch (encoding) {
    case 'binary':
      if (port === undefined) {
        return {
          ok: false,
          status: SmppStatus.ESME_RMISSINGTLV,
          reason: 'a binary message needs a destination port (UDH or destination_port)',
        };
      }
      return { ok: true, content: { kind: 'data', data: bytes.toString('base64'), port } };
    case 'ucs2':
      if (bytes.length % 2 !== 0) {
        return {
          ok: false,
          status: SmppStatus.ESME_RINVMSGLEN,
          reason: 'UCS-2 text has an odd number of octets',
        };
      }
      return { ok: true, content: { kind: 'text', text: bytes.swap16().toString('utf16le') } };
    case 'gsm7':
      return { ok: true, content: { kind: 'text', text: decodeGsm7(bytes) } };
    case 'ascii':
      return { ok: true, content: { kind: 'text', text: bytes.toString('ascii') } };
    case 'latin1':
      return { ok: true, content: { kind: 'text', text: bytes.toString('latin1') } };
  }
}
