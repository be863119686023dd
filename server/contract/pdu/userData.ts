/** TP-UDL + TP-UD (TS 23.040 §9.2.3.16, §9.2.3.24): reading and writing user data with its header. */
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import { interpretDataCodingScheme } from './dataCoding.js';
import { decodeGsm7 } from './gsm7.js';
import { gsm7TablesFor } from './nationalLanguage.js';
import type { OctetReader } from './octetReader.js';
import type { Segment } from './segmenter.js';
import { headerSeptetCount, packSeptets, septetCapacity, unpackSeptets } from './septets.js';
import type { HeaderElement, UserData } from './types.js';
import { decodeUcs2, encodeUcs2 } from './ucs2.js';
import { encodeUserDataHeader, parseUserDataHeader, type UserDataHeader } from './udh.js';

interface SplitUserData {
  header?: UserDataHeader;
  /** Octets taken by UDHL and the elements. */
  headerOctets: number;
}

function splitHeader(userData: Uint8Array, hasHeader: boolean): SplitUserData {
  // TP-UDHI with TP-UDL 0 occurs in real captures (gammu at-sms): there is no header to read.
  const headerLength = userData[0];
  if (!hasHeader || headerLength === undefined) return { headerOctets: 0 };
  const headerOctets = headerLength + 1;
  if (headerOctets > userData.length) {
    throw new GatewayError(ErrorCode.PduMalformed, 'The user data header is longer than the user data', {
      field: 'udh',
    });
  }
  return { header: parseUserDataHeader(userData.subarray(1, headerOctets)), headerOctets };
}

/**
 * Reads TP-UDL and TP-UD. Reading stops at TP-UDL even when the modem appended more octets
 * (gammu at-sms-39), and a shorter-than-announced UD is decoded as far as it goes
 * (python-gsmmodem's UDL-160 vector, gammu at-sms-41) rather than rejected.
 */
export function readUserData(reader: OctetReader, dataCodingScheme: number, hasHeader: boolean): UserData {
  const { encoding } = interpretDataCodingScheme(dataCodingScheme);
  const length = reader.readOctet('TP-UDL');
  const announcedOctets = encoding === 'gsm7' ? Math.ceil((length * 7) / 8) : length;
  const userData = reader.readAtMost(announcedOctets);
  const { header, headerOctets } = splitHeader(userData, hasHeader);
  const common = {
    headerElements: header?.elements ?? [],
    ...(header?.concatenation !== undefined ? { concatenation: header.concatenation } : {}),
    ...(header?.ports !== undefined ? { ports: header.ports } : {}),
  };

  if (encoding === 'gsm7') {
    const skipSeptets = headerOctets > 0 ? headerSeptetCount(headerOctets) : 0;
    const septetCount = Math.max(0, Math.min(length, septetCapacity(userData.length)) - skipSeptets);
    const septets = unpackSeptets(userData, skipSeptets, septetCount);
    const tables = gsm7TablesFor(header?.lockingShiftLanguage, header?.singleShiftLanguage);
    return { encoding, text: decodeGsm7(septets, tables), bytes: Uint8Array.from(septets), ...common };
  }
  const payload = userData.slice(headerOctets);
  if (encoding === 'ucs2') return { encoding, text: decodeUcs2(payload), bytes: payload, ...common };
  return { encoding, bytes: payload, ...common };
}

/** TP-UDL followed by TP-UD for one part. */
export function encodeUserData(segment: Segment, elements: readonly HeaderElement[]): number[] {
  const header = encodeUserDataHeader(elements);
  if (segment.encoding === 'gsm7') {
    const septets = (header.length > 0 ? headerSeptetCount(header.length) : 0) + segment.septets.length;
    return [septets, ...packSeptets(segment.septets, header)];
  }
  const payload = segment.encoding === 'ucs2' ? encodeUcs2(segment.text) : segment.bytes;
  return [header.length + payload.length, ...header, ...payload];
}
