/** SMS-STATUS-REPORT (TS 23.040 §9.2.2.3): the delivery report for a message we sent with TP-SRR. */
import { encodeAddressField, encodeSmscField, readAddressField } from './address.js';
import { FirstOctet, MessageTypeIndicator } from './firstOctet.js';
import { bytesToHex } from './hex.js';
import { requireOctetValue } from './inputChecks.js';
import type { OctetReader } from './octetReader.js';
import { decodeTimestamp, encodeTimestamp, TIMESTAMP_OCTETS } from './timestamp.js';
import type { Address, DecodedStatusReport, EncodedPdu, StatusReportOptions, UserData } from './types.js';
import { readUserData } from './userData.js';

/** TS 23.040 §9.2.3.27 TP-PI bits. */
const ParameterIndicator = {
  ProtocolId: 0x01,
  DataCoding: 0x02,
  UserDataLength: 0x04,
  Reserved: 0x78,
} as const;

/**
 * The optional tail after TP-ST. A TP-PI with any of the reserved bits 3..6 set is taken as
 * padding, not as a parameter indicator: gammu's at-sms-32 capture pads the report with 0xFF,
 * and reading that as "PID, DCS and UD present" would parse padding as a message. Android's
 * SmsMessage reads the optional fields under the same condition.
 */
function readOptionalUserData(reader: OctetReader, firstOctet: number): UserData | undefined {
  if (reader.remaining === 0) return undefined;
  const indicator = reader.readOctet('TP-PI');
  if ((indicator & ParameterIndicator.Reserved) !== 0) return undefined;
  if ((indicator & ParameterIndicator.ProtocolId) !== 0) reader.readOctet('TP-PID');
  const dataCodingScheme =
    (indicator & ParameterIndicator.DataCoding) !== 0 ? reader.readOctet('TP-DCS') : 0x00;
  if ((indicator & ParameterIndicator.UserDataLength) === 0) return undefined;
  return readUserData(reader, dataCodingScheme, (firstOctet & FirstOctet.UserDataHeader) !== 0);
}

export function readStatusReport(
  reader: OctetReader,
  firstOctet: number,
  smsc: Address | undefined,
): DecodedStatusReport {
  const messageReference = reader.readOctet('TP-MR');
  const recipient = readAddressField(reader, 'TP-RA');
  const serviceCentreTimestamp = decodeTimestamp(reader.readOctets(TIMESTAMP_OCTETS, 'TP-SCTS'), 'TP-SCTS');
  const dischargeTime = decodeTimestamp(reader.readOctets(TIMESTAMP_OCTETS, 'TP-DT'), 'TP-DT');
  const status = reader.readOctet('TP-ST');
  const userData = readOptionalUserData(reader, firstOctet);
  return {
    type: 'status-report',
    ...(smsc !== undefined ? { smsc } : {}),
    messageReference,
    recipient,
    serviceCentreTimestamp,
    dischargeTime,
    status,
    ...(userData !== undefined ? { userData } : {}),
  };
}

/** A report as the simulated modem's SMSC would send it: no TP-PI, TP-MMS set (nothing waiting). */
export function encodeStatusReport(options: StatusReportOptions): EncodedPdu {
  const smscField = encodeSmscField(options.smsc);
  const tpdu = [
    MessageTypeIndicator.StatusReport | FirstOctet.NoMoreMessages,
    requireOctetValue(options.messageReference, 'messageReference'),
    ...encodeAddressField(options.recipient, { field: 'recipient', allowAlphanumeric: false }),
    ...encodeTimestamp(options.serviceCentreTimestamp, 'serviceCentreTimestamp'),
    ...encodeTimestamp(options.dischargeTime, 'dischargeTime'),
    requireOctetValue(options.status, 'status'),
  ];
  return { hex: bytesToHex(Uint8Array.from([...smscField, ...tpdu])), tpduLength: tpdu.length };
}
