/**
 * USSD strings as modems exchange them (TS 27.007 §7.15 +CUSD). Pure.
 *
 * `<dcs>` is a Cell Broadcast Data Coding Scheme (TS 23.038 §5). What a modem prints as `<str>`
 * depends on the alphabet AND on the modem: most print GSM 7-bit answers as text in the +CSCS
 * character set (characterSet.ts), Huawei sticks print them as the packed septets in hex (and
 * want requests that way too), and UCS-2 answers (DCS 72, common for Cyrillic or Arabic
 * operators) come as hex of the UTF-16 code units.
 */
import { decodeGsm7, toGsm7Characters } from '../../contract/pdu/gsm7.js';
import { bytesToHex, hexToBytes } from '../../contract/pdu/hex.js';
import { packSeptets, septetCapacity, unpackSeptets } from '../../contract/pdu/septets.js';
import { decodeUcs2 } from '../../contract/pdu/ucs2.js';
import { textFromCharacterSet, textToCharacterSet } from './characterSet.js';

export type UssdAlphabet = 'gsm7' | '8bit' | 'ucs2';

/** How a modem writes GSM 7-bit USSD strings: as text, or as packed septets in hex (Huawei). */
export type UssdTextForm = 'text' | 'packed-hex';

/** How one modem writes USSD strings: its form, and its TE character set (+CSCS) for text. */
export interface UssdDialect {
  form: UssdTextForm;
  /** Undefined when the modem did not say: the text is taken as it comes. */
  charset: string | undefined;
}

/** TS 27.007 §7.15 <m>. */
export const UssdStatus = {
  Done: 0,
  FurtherActionRequired: 1,
  TerminatedByNetwork: 2,
  OtherClientResponded: 3,
  NotSupported: 4,
  NetworkTimeout: 5,
} as const;

export interface UssdResult {
  status: number;
  /** Absent when the network sent no string (e.g. <m> 2 or 4 alone). */
  text?: string;
  dcs?: number;
}

/** TS 23.038 §5, the CBS coding groups that name an alphabet. Unknown groups read as GSM 7-bit. */
export function alphabetOfDcs(dcs: number): UssdAlphabet {
  const group = dcs >> 4;
  if (group === 0x0) return 'gsm7';
  if (group === 0x1) return dcs === 0x11 ? 'ucs2' : 'gsm7';
  // 01xx general data coding and 1001 (message with a header): bits 3..2 name the alphabet.
  if ((group & 0xc) === 0x4 || group === 0x9) {
    const alphabet = (dcs >> 2) & 0x3;
    return alphabet === 2 ? 'ucs2' : alphabet === 1 ? '8bit' : 'gsm7';
  }
  if (group === 0xf) return (dcs & 0x4) === 0 ? 'gsm7' : '8bit';
  return 'gsm7';
}

const hexPattern = /^(?:[0-9A-Fa-f]{2})+$/;

/**
 * The text of a `+CUSD:` string (TS 27.007 §7.15 <str>). UCS-2 arrives as hex of its code units
 * whatever the modem; a language-prefixed UCS-2 string (DCS 0x11) starts with two GSM 7-bit
 * characters, dropped here. The default alphabet arrives in the TE character set (`charset`,
 * +CSCS: "GSM" septets, "UCS2" hex, IRA text…), or as packed hex from modems whose form is
 * 'packed-hex' whatever their set.
 */
export function decodeUssdString(
  str: string,
  dcs: number,
  form: UssdTextForm,
  charset: string | undefined,
): string {
  const alphabet = alphabetOfDcs(dcs);
  if (alphabet === 'ucs2' && hexPattern.test(str) && str.length % 4 === 0) {
    const text = decodeUcs2(hexToBytes(str));
    return dcs === 0x11 ? text.slice(1) : text;
  }
  if (alphabet !== 'gsm7') return str;
  if (form === 'packed-hex' && hexPattern.test(str)) {
    const packed = hexToBytes(str);
    const septets = unpackSeptets(packed, 0, septetCapacity(packed.length));
    // TS 23.038 §6.1.2.3.1: 7 spare bits at the end are filled with CR, which is no character.
    if (septets.length % 8 === 0 && septets.at(-1) === 0x0d) septets.pop();
    return decodeGsm7(septets);
  }
  return textFromCharacterSet(str, charset);
}

/**
 * A request (`*100#`, or a menu choice) in the modem's form and character set; undefined when
 * GSM 7-bit, or the set, cannot spell it.
 */
export function encodeUssdString(
  text: string,
  form: UssdTextForm,
  charset: string | undefined,
): string | undefined {
  const characters = toGsm7Characters(text);
  if (!characters) return undefined;
  if (form === 'text') return textToCharacterSet(text, charset);
  const septets = characters.flat();
  // 7 spare bits would read as an "@": TS 23.038 §6.1.2.3.1 fills them with CR.
  if (septets.length % 8 === 7) septets.push(0x0d);
  return bytesToHex(packSeptets(septets));
}

/**
 * `+CUSD: <m>[,<str>[,<dcs>]]` (arguments only); undefined when <m> is not a number. Huawei's
 * E160 writes <str> without quotes and no <dcs> (`+CUSD: 0, 49B41C…`, gammu
 * tests/at-ussd/01-E160.dump): read as the default alphabet, as the E160's quoted answers say.
 */
export function parseCusd(args: string): UssdResult | undefined {
  const match = /^\s*(\d+)\s*(?:,\s*(?:"((?:[^"]|"")*)"|([^",\s]+))\s*(?:,\s*(\d+))?)?/.exec(args);
  if (!match) return undefined;
  const result: UssdResult = { status: Number(match[1]) };
  const text = match[2] ?? match[3];
  if (text !== undefined) result.text = text;
  if (match[4] !== undefined) result.dcs = Number(match[4]);
  return result;
}
