/**
 * Address fields (TS 23.040 §9.1.2.5) and the SMSC field of AT PDU mode (TS 27.005 §3.1,
 * TS 24.011 RP address): type-of-address octet, then semi-octet digits or, for
 * alphanumeric addresses (TON 5), GSM 7-bit packed text.
 */
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import { decodeGsm7, septetsOfCharacter } from './gsm7.js';
import type { OctetReader } from './octetReader.js';
import { packSeptets, unpackSeptets } from './septets.js';
import type { Address } from './types.js';

const TypeOfNumber = { Unknown: 0, International: 1, National: 2, Alphanumeric: 5 } as const;

/** TOA octets we send: bit 7 set, numbering plan 1 (ISDN/E.164) or 0 for alphanumeric. */
const TOA_INTERNATIONAL = 0x91;
const TOA_UNKNOWN = 0x81;
const TOA_ALPHANUMERIC = 0xd0;

/** TS 23.040 §9.1.2.3: semi-octet values 10..14; 15 is the filler of an odd-length number. */
const SEMI_OCTET_SYMBOLS = '0123456789*#abc';
const FILLER = 0x0f;

/** TS 23.040 §9.1.2.5: at most 20 digits in an address field. */
const MAX_DIGITS = 20;
/** 11 GSM characters fill the 10 octets an alphanumeric address may use. */
const MAX_ALPHANUMERIC_SEPTETS = 11;

function addressType(typeOfAddress: number): Address['type'] {
  switch ((typeOfAddress >> 4) & 0x07) {
    case TypeOfNumber.International:
      return 'international';
    case TypeOfNumber.National:
      return 'national';
    case TypeOfNumber.Alphanumeric:
      return 'alphanumeric';
    default:
      return 'unknown';
  }
}

/**
 * Semi-octet digits, low nibble first. Non-decimal nibbles are kept as the symbols TS 23.040
 * §9.1.2.3 assigns them rather than rejected: real modems put them in corrupt fields (ZTE status
 * report in python-gsmmodem's tests) and the rest of the PDU is still worth reading.
 */
function decodeSemiOctets(octets: Uint8Array, digitCount: number): string {
  let digits = '';
  for (let index = 0; index < digitCount; index++) {
    const octet = octets[index >> 1] ?? FILLER;
    const nibble = index % 2 === 0 ? octet & 0x0f : octet >> 4;
    if (nibble === FILLER) break;
    digits += SEMI_OCTET_SYMBOLS.charAt(nibble);
  }
  return digits;
}

function toAddress(typeOfAddress: number, body: Uint8Array, semiOctets: number): Address {
  const type = addressType(typeOfAddress);
  if (type === 'alphanumeric') {
    const septets = unpackSeptets(body, 0, Math.floor((semiOctets * 4) / 7));
    return { number: decodeGsm7(septets), type, typeOfAddress };
  }
  const digits = decodeSemiOctets(body, semiOctets);
  const number = type === 'international' && digits.length > 0 ? `+${digits}` : digits;
  return { number, type, typeOfAddress };
}

/**
 * TP-OA / TP-DA / TP-RA: the length octet counts useful semi-octets, at most 20 (TS 23.040
 * §9.1.2.5: the field is 2 to 12 octets). More is no address: the PDU is refused, not read on.
 */
export function readAddressField(reader: OctetReader, field: string): Address {
  const semiOctets = reader.readOctet(`${field} length`);
  if (semiOctets > MAX_DIGITS) {
    throw new GatewayError(
      ErrorCode.PduMalformed,
      `${field} length ${semiOctets} is more than the ${MAX_DIGITS} digits an address holds (TS 23.040 §9.1.2.5)`,
      { field },
    );
  }
  const typeOfAddress = reader.readOctet(`${field} type`);
  const body = reader.readOctets(Math.ceil(semiOctets / 2), field);
  return toAddress(typeOfAddress, body, semiOctets);
}

/**
 * The SMSC field that precedes the TPDU in AT PDU mode: its length octet counts octets
 * including the type octet; 0 means no SMSC (the SIM's is used). "01 81" (type only) yields an
 * empty number, as gammu's at-sms captures show.
 */
export function readSmscField(reader: OctetReader): Address | undefined {
  const length = reader.readOctet('SMSC length');
  if (length === 0) return undefined;
  const typeOfAddress = reader.readOctet('SMSC type');
  const body = reader.readOctets(length - 1, 'SMSC address');
  return toAddress(typeOfAddress, body, body.length * 2);
}

interface ParsedNumber {
  typeOfAddress: number;
  digits: string;
}

const DIALLABLE = /^[0-9*#abc]+$/;

function parseNumber(address: string): ParsedNumber | undefined {
  const international = address.startsWith('+');
  const digits = international ? address.slice(1) : address;
  if (!DIALLABLE.test(digits) || digits.length > MAX_DIGITS) return undefined;
  return { typeOfAddress: international ? TOA_INTERNATIONAL : TOA_UNKNOWN, digits };
}

function encodeSemiOctets(digits: string): number[] {
  const octets: number[] = [];
  for (let index = 0; index < digits.length; index += 2) {
    const low = SEMI_OCTET_SYMBOLS.indexOf(digits.charAt(index));
    const high = index + 1 < digits.length ? SEMI_OCTET_SYMBOLS.indexOf(digits.charAt(index + 1)) : FILLER;
    octets.push((high << 4) | low);
  }
  return octets;
}

function alphanumericSeptets(address: string): number[] | undefined {
  const septets: number[] = [];
  for (const char of address) {
    const charSeptets = septetsOfCharacter(char);
    if (charSeptets === undefined) return undefined;
    septets.push(...charSeptets);
  }
  return septets.length > 0 && septets.length <= MAX_ALPHANUMERIC_SEPTETS ? septets : undefined;
}

export interface AddressEncodingOptions {
  /** The option name to blame in the error. */
  field: string;
  /** Senders (SMS-DELIVER) may be alphanumeric, recipients may not. */
  allowAlphanumeric: boolean;
}

/**
 * TP-DA / TP-OA / TP-RA. "+digits" is international (TOA 0x91); bare digits go out as
 * unknown/ISDN (TOA 0x81) so the network applies the subscriber's dialling rules to national
 * numbers such as "0612345678".
 */
export function encodeAddressField(address: string, options: AddressEncodingOptions): number[] {
  const parsed = parseNumber(address);
  if (parsed !== undefined) {
    return [parsed.digits.length, parsed.typeOfAddress, ...encodeSemiOctets(parsed.digits)];
  }
  const septets = options.allowAlphanumeric ? alphanumericSeptets(address) : undefined;
  if (septets === undefined) {
    throw new GatewayError(
      ErrorCode.PduMalformed,
      `Cannot encode ${options.field} "${address}" as an address`,
      {
        field: options.field,
      },
    );
  }
  const packed = packSeptets(septets);
  return [Math.ceil((septets.length * 7) / 4), TOA_ALPHANUMERIC, ...packed];
}

/** The leading SMSC field; "00" when none is given, so the modem uses the SIM's SMSC. */
export function encodeSmscField(smsc: string | undefined): number[] {
  if (smsc === undefined) return [0x00];
  const parsed = parseNumber(smsc);
  if (parsed === undefined || parsed.digits.length === 0) {
    throw new GatewayError(ErrorCode.PduMalformed, `Cannot encode SMSC "${smsc}" as an address`, {
      field: 'smsc',
    });
  }
  const digits = encodeSemiOctets(parsed.digits);
  return [digits.length + 1, parsed.typeOfAddress, ...digits];
}
