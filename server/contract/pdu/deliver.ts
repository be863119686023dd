/** SMS-DELIVER (TS 23.040 §9.2.2.1): what modems give us for received messages. */
import { encodeAddressField, encodeSmscField, readAddressField } from './address.js';
import { contentParts } from './contentParts.js';
import { dataCodingSchemeFor, interpretDataCodingScheme } from './dataCoding.js';
import { FirstOctet, MessageTypeIndicator } from './firstOctet.js';
import { bytesToHex } from './hex.js';
import type { OctetReader } from './octetReader.js';
import { decodeTimestamp, encodeTimestamp, TIMESTAMP_OCTETS } from './timestamp.js';
import type { Address, DecodedDeliver, DeliverOptions, EncodedPdu } from './types.js';
import { encodeUserData, readUserData } from './userData.js';

const PROTOCOL_ID_DEFAULT = 0x00;

/**
 * What a modem would list for an incoming message, one PDU per part. Like real SMSCs, every
 * part but the last says more messages are waiting (TP-MMS clear).
 */
export function encodeDeliver(options: DeliverOptions): EncodedPdu[] {
  const smscField = encodeSmscField(options.smsc);
  const originator = encodeAddressField(options.sender, { field: 'sender', allowAlphanumeric: true });
  const timestamp = encodeTimestamp(options.timestamp, 'timestamp');
  const parts = contentParts(options.content, options.concatReference ?? 0);

  return parts.map(({ segment, elements }, index) => {
    const isLast = index === parts.length - 1;
    const firstOctet =
      MessageTypeIndicator.Deliver |
      (isLast ? FirstOctet.NoMoreMessages : 0) |
      (elements.length > 0 ? FirstOctet.UserDataHeader : 0);
    const tpdu = [
      firstOctet,
      ...originator,
      PROTOCOL_ID_DEFAULT,
      dataCodingSchemeFor(segment.encoding),
      ...timestamp,
      ...encodeUserData(segment, elements),
    ];
    return { hex: bytesToHex(Uint8Array.from([...smscField, ...tpdu])), tpduLength: tpdu.length };
  });
}

export function readDeliver(
  reader: OctetReader,
  firstOctet: number,
  smsc: Address | undefined,
): DecodedDeliver {
  const sender = readAddressField(reader, 'TP-OA');
  const protocolId = reader.readOctet('TP-PID');
  const dataCodingScheme = reader.readOctet('TP-DCS');
  const timestamp = decodeTimestamp(reader.readOctets(TIMESTAMP_OCTETS, 'TP-SCTS'), 'TP-SCTS');
  const userData = readUserData(reader, dataCodingScheme, (firstOctet & FirstOctet.UserDataHeader) !== 0);
  const { messageClass } = interpretDataCodingScheme(dataCodingScheme);
  return {
    type: 'deliver',
    ...(smsc !== undefined ? { smsc } : {}),
    sender,
    timestamp,
    protocolId,
    dataCodingScheme,
    ...(messageClass !== undefined ? { messageClass } : {}),
    statusReportIndication: (firstOctet & FirstOctet.StatusReport) !== 0,
    moreMessagesToSend: (firstOctet & FirstOctet.NoMoreMessages) === 0,
    replyPath: (firstOctet & FirstOctet.ReplyPath) !== 0,
    ...userData,
  };
}
