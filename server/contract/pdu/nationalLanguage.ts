/**
 * National language shift tables (TS 23.038 Annex A), selected by the UDH elements
 * IEI 0x25 (locking shift) and IEI 0x24 (single shift), TS 23.040 §9.2.3.24.15/16.
 *
 * Decoding only. Encoding deliberately falls back to UCS-2 for text outside the default
 * tables: a shift-table SMS saves parts only for some languages, and handsets without the
 * table would show the wrong characters, while every handset renders UCS-2.
 */
import { DEFAULT_ALPHABET, DEFAULT_EXTENSION, type Gsm7Tables } from './gsm7.js';

export const NationalLanguage = { Turkish: 1, Spanish: 2, Portuguese: 3 } as const;

/** TS 23.038 A.3.1. */
const TURKISH_LOCKING =
  '@£$¥€éùıòÇ\nĞğ\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bŞşßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  'İABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§çabcdefghijklmnopqrstuvwxyzäöñüà';

/** TS 23.038 A.3.3. (A.3.2: Spanish has no locking shift table; the default alphabet applies.) */
const PORTUGUESE_LOCKING =
  '@£$¥êéúíóç\nÔô\rÁáΔ_ªÇÀ∞^\\€Ó|\u001bÂâÊÉ !"#º%&\'()*+,-./0123456789:;<=>?' +
  'ÍABCDEFGHIJKLMNOPQRSTUVWXYZÃÕÚÜ§~abcdefghijklmnopqrstuvwxyzãõ`üà';

function withExtension(entries: [number, string][]): ReadonlyMap<number, string> {
  return new Map([...DEFAULT_EXTENSION, ...entries]);
}

/** TS 23.038 A.2.1. */
const TURKISH_SINGLE_SHIFT = withExtension([
  [0x47, 'Ğ'],
  [0x49, 'İ'],
  [0x53, 'Ş'],
  [0x63, 'ç'],
  [0x67, 'ğ'],
  [0x69, 'ı'],
  [0x73, 'ş'],
]);

/** TS 23.038 A.2.2. */
const SPANISH_SINGLE_SHIFT = withExtension([
  [0x09, 'ç'],
  [0x41, 'Á'],
  [0x49, 'Í'],
  [0x4f, 'Ó'],
  [0x55, 'Ú'],
  [0x61, 'á'],
  [0x69, 'í'],
  [0x6f, 'ó'],
  [0x75, 'ú'],
]);

/** TS 23.038 A.2.3. */
const PORTUGUESE_SINGLE_SHIFT = withExtension([
  [0x05, 'ê'],
  [0x09, 'ç'],
  [0x0b, 'Ô'],
  [0x0c, 'ô'],
  [0x0e, 'Á'],
  [0x0f, 'á'],
  [0x12, 'Φ'],
  [0x13, 'Γ'],
  [0x15, 'Ω'],
  [0x16, 'Π'],
  [0x17, 'Ψ'],
  [0x18, 'Σ'],
  [0x19, 'Θ'],
  [0x1f, 'Ê'],
  [0x41, 'À'],
  [0x49, 'Í'],
  [0x4f, 'Ó'],
  [0x55, 'Ú'],
  [0x5b, 'Ã'],
  [0x5c, 'Õ'],
  [0x61, 'Â'],
  [0x69, 'í'],
  [0x6f, 'ó'],
  [0x75, 'ú'],
  [0x7b, 'ã'],
  [0x7c, 'õ'],
  [0x7f, 'â'],
]);

function lockingTable(language: number | undefined): string {
  if (language === NationalLanguage.Turkish) return TURKISH_LOCKING;
  if (language === NationalLanguage.Portuguese) return PORTUGUESE_LOCKING;
  return DEFAULT_ALPHABET;
}

function singleShiftTable(language: number | undefined): ReadonlyMap<number, string> {
  if (language === NationalLanguage.Turkish) return TURKISH_SINGLE_SHIFT;
  if (language === NationalLanguage.Spanish) return SPANISH_SINGLE_SHIFT;
  if (language === NationalLanguage.Portuguese) return PORTUGUESE_SINGLE_SHIFT;
  return DEFAULT_EXTENSION;
}

/**
 * The tables for the languages a UDH names. A language we do not hold falls back to the
 * default alphabet, the behaviour TS 23.038 §6.2.1.2 asks of a receiver that lacks it.
 */
export function gsm7TablesFor(lockingLanguage?: number, singleShiftLanguage?: number): Gsm7Tables {
  return { locking: lockingTable(lockingLanguage), singleShift: singleShiftTable(singleShiftLanguage) };
}
