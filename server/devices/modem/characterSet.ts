/**
 * The TE character set (TS 27.007 §5.5 +CSCS): how a modem writes the text fields of its
 * answers (a USSD string in the default alphabet, an operator name) and reads ours. Pure.
 *
 * Lines reach us decoded as Latin-1, one character per byte, so a field in "GSM" holds the
 * septet values themselves (`w{hlen` is `wählen`: ä is septet 0x7B, TS 23.038 §6.2.1), one in
 * "UCS2" the hex of its UTF-16 code units, one in "HEX" the hex of each septet.
 */
import { decodeGsm7, toGsm7Characters } from '../../contract/pdu/gsm7.js';
import { bytesToHex, hexToBytes } from '../../contract/pdu/hex.js';
import { decodeUcs2, encodeUcs2 } from '../../contract/pdu/ucs2.js';

/**
 * The set the gateway asks for when offered: lossless for the default alphabet, and numbers
 * (+CNUM, +CSCA) stay plain digits, as they do not in "UCS2".
 */
export const preferredCharacterSet = 'GSM';

const hexPattern = /^(?:[0-9A-Fa-f]{2})+$/;

/** A text field as the modem wrote it in `charset`, as text; undefined charset: as it came. */
export function textFromCharacterSet(field: string, charset: string | undefined): string {
  switch (charset) {
    case 'GSM':
      return decodeGsm7(Array.from(field, (char) => char.charCodeAt(0) & 0x7f));
    case 'UCS2':
      return hexPattern.test(field) && field.length % 4 === 0 ? decodeUcs2(hexToBytes(field)) : field;
    case 'HEX':
      return hexPattern.test(field) ? decodeGsm7(hexToBytes(field)) : field;
    case 'UTF-8':
      return Buffer.from(field, 'latin1').toString('utf8');
    default:
      return field;
  }
}

/**
 * Text written in `charset` for the modem to read; undefined when that set cannot carry it
 * ("GSM" and "HEX" carry the default alphabet only, IRA and Latin-1 their own characters).
 */
export function textToCharacterSet(text: string, charset: string | undefined): string | undefined {
  switch (charset) {
    case 'GSM': {
      const characters = toGsm7Characters(text);
      return characters && String.fromCharCode(...characters.flat());
    }
    case 'UCS2':
      return bytesToHex(encodeUcs2(text));
    case 'HEX': {
      const characters = toGsm7Characters(text);
      return characters && bytesToHex(Uint8Array.from(characters.flat()));
    }
    case 'UTF-8':
      return Buffer.from(text, 'utf8').toString('latin1');
    default: {
      // IRA is 7-bit ASCII; 8859-1 and the PC code pages take one byte per character.
      const highest = charset === 'IRA' ? 0x7f : 0xff;
      return Array.from(text).every((char) => (char.codePointAt(0) ?? 0) <= highest) ? text : undefined;
    }
  }
}
