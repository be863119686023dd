/** TP-DCS interpretation (TS 23.038 §4). */
import type { TextEncoding } from './types.js';

export interface DataCoding {
  encoding: TextEncoding;
  messageClass?: number;
  /** TS 23.038 §4 bit 5: compressed text. We do not decompress; the octets are returned as 8-bit data. */
  compressed: boolean;
}

const ALPHABET_BY_BITS: readonly TextEncoding[] = ['gsm7', '8bit', 'ucs2', 'gsm7'];

export function interpretDataCodingScheme(dcs: number): DataCoding {
  const group = dcs >> 4;
  if (group <= 0x7) {
    // 00xx (general) and 01xx (marked for automatic deletion) share one layout.
    const compressed = (dcs & 0x20) !== 0;
    // Alphabet 11 is reserved; TS 23.038 §4 says to assume the GSM 7-bit default alphabet.
    const alphabet = ALPHABET_BY_BITS[(dcs >> 2) & 0x03] ?? 'gsm7';
    return {
      encoding: compressed ? '8bit' : alphabet,
      compressed,
      ...((dcs & 0x10) !== 0 ? { messageClass: dcs & 0x03 } : {}),
    };
  }
  if (group === 0xe) return { encoding: 'ucs2', compressed: false }; // message waiting, store, UCS-2
  if (group === 0xf) {
    // Data coding / message class; bit 3 is reserved and ignored (gammu at-sms DCS 0xFB).
    return { encoding: (dcs & 0x04) !== 0 ? '8bit' : 'gsm7', messageClass: dcs & 0x03, compressed: false };
  }
  // 1100/1101: message waiting with the default alphabet; 1000..1011: reserved groups, which
  // TS 23.038 §4 asks receivers to treat as the GSM 7-bit default alphabet.
  return { encoding: 'gsm7', compressed: false };
}

/** The DCS we send: class-less general coding group. */
export function dataCodingSchemeFor(encoding: TextEncoding): number {
  if (encoding === 'ucs2') return 0x08;
  if (encoding === '8bit') return 0x04;
  return 0x00;
}
