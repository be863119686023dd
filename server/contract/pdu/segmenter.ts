/**
 * Splitting content into SMS parts (TS 23.040 §9.2.3.24.1 concatenation; 140-octet user data).
 * A GSM escape sequence and a UTF-16 surrogate pair are never split across parts.
 */
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import { toGsm7Characters } from './gsm7.js';
import type { TextPlan } from './types.js';

/** User data is at most 140 octets: 160 septets or 70 UCS-2 units. */
const USER_DATA_OCTETS = 140;
/** UDHL + IEI 0x00 element (5 octets) = 6 octets, 7 septets once aligned. */
const CONCAT_HEADER_OCTETS = 6;
/** UDHL + IEI 0x05 element (6 octets). */
const PORTS_HEADER_OCTETS = 7;
/** The concatenation count is one octet. */
export const MAX_PARTS = 255;

export const Gsm7Limits = { single: 160, multipart: 153 } as const;
export const Ucs2Limits = { single: 70, multipart: 67 } as const;
export const DataLimits = {
  single: USER_DATA_OCTETS - PORTS_HEADER_OCTETS,
  multipart: USER_DATA_OCTETS - PORTS_HEADER_OCTETS - (CONCAT_HEADER_OCTETS - 1),
} as const;

export type Segment =
  | { encoding: 'gsm7'; septets: number[] }
  | { encoding: 'ucs2'; text: string }
  | { encoding: '8bit'; bytes: Uint8Array };

interface Limits {
  single: number;
  multipart: number;
}

/**
 * Greedy packing of indivisible items (a character's septets, a code point's units) into
 * parts. Everything fits in one part up to `single`; beyond that each part holds `multipart`.
 */
function packItems<T>(items: readonly T[], sizeOf: (item: T) => number, limits: Limits): T[][] {
  const total = items.reduce((sum, item) => sum + sizeOf(item), 0);
  if (total <= limits.single) return [[...items]];
  const parts: T[][] = [];
  let current: T[] = [];
  let used = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (used + size > limits.multipart) {
      parts.push(current);
      current = [];
      used = 0;
    }
    current.push(item);
    used += size;
  }
  parts.push(current);
  return parts;
}

/** Code points of `text` as UTF-16 strings, so a surrogate pair travels as one item. */
function codePoints(text: string): string[] {
  return Array.from(text);
}

function lengthOf(value: { length: number }): number {
  return value.length;
}

interface TextLayout {
  encoding: 'gsm7' | 'ucs2';
  limits: Limits;
  partSizes: number[];
  segments: Segment[];
}

function layoutText(text: string): TextLayout {
  const gsm7 = toGsm7Characters(text);
  if (gsm7 !== undefined) {
    const parts = packItems(gsm7, lengthOf, Gsm7Limits);
    return {
      encoding: 'gsm7',
      limits: Gsm7Limits,
      partSizes: parts.map((part) => part.reduce((sum, septets) => sum + septets.length, 0)),
      segments: parts.map((part) => ({ encoding: 'gsm7', septets: part.flat() })),
    };
  }
  const parts = packItems(codePoints(text), lengthOf, Ucs2Limits);
  const texts = parts.map((part) => part.join(''));
  return {
    encoding: 'ucs2',
    limits: Ucs2Limits,
    partSizes: texts.map(lengthOf),
    segments: texts.map((partText) => ({ encoding: 'ucs2', text: partText })),
  };
}

function ensurePartCount(parts: number): void {
  if (parts > MAX_PARTS) {
    throw new GatewayError(
      ErrorCode.MessageTooLong,
      `The message needs ${parts} parts; at most ${MAX_PARTS} fit`,
      {
        field: 'content',
      },
    );
  }
}

/** GSM 7-bit when every character is in the default or extension table, otherwise UCS-2. */
export function segmentText(text: string): Segment[] {
  const { segments } = layoutText(text);
  ensurePartCount(segments.length);
  return segments;
}

/** 8-bit data always carries its ports header, so its capacity is below 140 octets. */
export function segmentData(bytes: Uint8Array): Segment[] {
  const parts = packItems(Array.from(bytes), () => 1, DataLimits);
  ensurePartCount(parts.length);
  return parts.map((part) => ({ encoding: '8bit', bytes: Uint8Array.from(part) }));
}

/** The character counter's view; never throws, even past the part limit. */
export function planText(text: string): TextPlan {
  const { encoding, limits, partSizes } = layoutText(text);
  const parts = partSizes.length;
  const unitsPerPart = parts === 1 ? limits.single : limits.multipart;
  const lastPart = partSizes[parts - 1] ?? 0;
  return {
    encoding,
    parts,
    unitsUsed: partSizes.reduce((sum, size) => sum + size, 0),
    unitsPerPart,
    remainingInPart: unitsPerPart - lastPart,
  };
}
