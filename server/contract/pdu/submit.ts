/** SMS-SUBMIT (TS 23.040 §9.2.2.2): what we send through AT+CMGS, and what modems list from "sent" storage. */
import { encodeAddressField, encodeSmscField, readAddressField } from './address.js';
import { contentParts } from './contentParts.js';
import { dataCodingSchemeFor } from './dataCoding.js';
import { FirstOctet, MessageTypeIndicator } from './firstOctet.js';
import { bytesToHex } from './hex.js';
import { requireOctetValue } from './inputChecks.js';
import type { OctetReader } from './octetReader.js';
import type { Address, DecodedSubmit, EncodedSubmitPart, SubmitOptions } from './types.js';
import { encodeUserData, readUserData } from './userData.js';
import { encodeValidity, readValidity, validityFormatOf } from './validity.js';

const PROTOCOL_ID_DEFAULT = 0x00;

/** One PDU per part; each `hex` is ready to write after the AT+CMGS prompt. */
export function encodeSubmit(options: SubmitOptions): EncodedSubmitPart[] {
  const smscField = encodeSmscField(options.smsc);
  const messageReference = requireOctetValue(options.messageReference ?? 0, 'messageReference');
  const destination = encodeAddressField(options.recipient, { field: 'recipient', allowAlphanumeric: false });
  const validity = encodeValidity(options.validity);
  const parts = contentParts(options.content, options.concatReference);

  return parts.map(({ segment, elements }, index) => {
    const firstOctet =
      MessageTypeIndicator.Submit |
      (validityFormatOf(options.validity) << FirstOctet.ValidityFormatShift) |
      (options.requestStatusReport ? FirstOctet.StatusReport : 0) |
      (elements.length > 0 ? FirstOctet.UserDataHeader : 0);
    const tpdu = [
      firstOctet,
      messageReference,
      ...destination,
      PROTOCOL_ID_DEFAULT,
      dataCodingSchemeFor(segment.encoding),
      ...validity,
      ...encodeUserData(segment, elements),
    ];
    return {
      hex: bytesToHex(Uint8Array.from([...smscField, ...tpdu])),
      tpduLength: tpdu.length,
      partNumber: index + 1,
      partsCount: parts.length,
    };
  });
}

export function readSubmit(
  reader: OctetReader,
  firstOctet: number,
  smsc: Address | undefined,
): DecodedSubmit {
  const messageReference = reader.readOctet('TP-MR');
  const recipient = readAddressField(reader, 'TP-DA');
  const protocolId = reader.readOctet('TP-PID');
  const dataCodingScheme = reader.readOctet('TP-DCS');
  const validity = readValidity(reader, (firstOctet >> FirstOctet.ValidityFormatShift) & 0x03);
  const userData = readUserData(reader, dataCodingScheme, (firstOctet & FirstOctet.UserDataHeader) !== 0);
  return {
    type: 'submit',
    ...(smsc !== undefined ? { smsc } : {}),
    recipient,
    messageReference,
    statusReportRequested: (firstOctet & FirstOctet.StatusReport) !== 0,
    ...(validity !== undefined ? { validity } : {}),
    protocolId,
    dataCodingScheme,
    rejectDuplicates: (firstOctet & FirstOctet.RejectDuplicates) !== 0,
    ...userData,
  };
}
