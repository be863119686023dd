/// <reference path="./smppPackage.d.ts" />
import smpp from 'smpp';

/** A PDU as it came off the wire (SMPP 3.4 §3.2): the header, the mandatory fields, the TLVs. */
export interface SmppPdu {
  command: string;
  commandId: number;
  status: number;
  sequence: number;
  /** Mandatory fields by the spec's names: numbers, strings, and Buffers for octet strings. */
  fields: Record<string, unknown>;
  /** Optional parameters (§5.3) by the package's names (`dest_port` is destination_port). */
  tlvs: Record<string, unknown>;
}

/** §3.2: command_length covers the 16-octet header; the package refuses more than 16 kB. */
export const headerLength = 16;
export const maxPduLength = smpp.PDU.maxLength;

/** §5.1.2: the response to a command has the command's id with bit 31 set. */
export const responseBit = 0x80000000;

/**
 * Decodes one whole PDU by the package's command and TLV tables, without its "filters": we want
 * the octets and the time strings exactly as sent (the filters decode text in their own way and
 * read times on the local clock). An unknown command comes back as `unknown`; a body shorter than
 * its fields throws RangeError.
 */
export function decodePdu(buffer: Buffer): SmppPdu {
  const commandId = buffer.readUInt32BE(4);
  const pdu: SmppPdu = {
    command: 'unknown',
    commandId,
    status: buffer.readUInt32BE(8),
    sequence: buffer.readUInt32BE(12),
    fields: {},
    tlvs: {},
  };
  const definition = smpp.commandsById[commandId];
  if (!definition) return pdu;
  pdu.command = definition.command;
  let offset = headerLength;
  for (const [name, { type }] of Object.entries(definition.params ?? {})) {
    if (offset >= buffer.length) break;
    const value = type.read(buffer, offset);
    pdu.fields[name] = value;
    offset += type.size(value);
  }
  while (offset + 4 <= buffer.length) {
    const tag = buffer.readUInt16BE(offset);
    const length = buffer.readUInt16BE(offset + 2);
    offset += 4;
    if (offset + length > buffer.length) throw new RangeError(`TLV 0x${tag.toString(16)} runs past the PDU`);
    const tlv = smpp.tlvsById[tag];
    if (tlv) pdu.tlvs[tlv.tag] = tlv.type.read(buffer, offset, length);
    offset += length;
  }
  return pdu;
}

/** Encodes a PDU with the package. A response with an error status carries no body (§3.2). */
export function encodePdu(
  command: string,
  sequence: number,
  options: { status?: number; fields?: Record<string, unknown> } = {},
): Buffer {
  return new smpp.PDU(command, {
    sequence_number: sequence,
    command_status: options.status ?? 0,
    ...options.fields,
  }).toBuffer();
}

/**
 * Cuts a TCP byte stream into PDUs by their command_length. `push` returns the whole PDUs the
 * chunk completed, or a length that cannot be right (below the header or above the limit):
 * the stream is then out of step for good, and the session answers generic_nack and closes.
 */
export class PduFramer {
  private pending: Buffer = Buffer.alloc(0);

  /** Whether part of a PDU has come and the rest has not. */
  get holdsPart(): boolean {
    return this.pending.length > 0;
  }

  push(chunk: Buffer): { pdus: Buffer[]; badLength?: number } {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const pdus: Buffer[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readUInt32BE(0);
      if (length < headerLength || length > maxPduLength) return { pdus, badLength: length };
      if (this.pending.length < length) break;
      pdus.push(this.pending.subarray(0, length));
      this.pending = this.pending.subarray(length);
    }
    return { pdus };
  }
}
