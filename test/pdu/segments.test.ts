import { describe, expect, it } from 'vitest';
import type { DecodedSubmit } from '../../server/contract/pdu/index.js';
import { decodePdu, encodeSubmit, planText } from '../../server/contract/pdu/index.js';

function partsOf(message: string): DecodedSubmit[] {
  return encodeSubmit({
    recipient: '+4915112345678',
    content: { kind: 'text', text: message },
    requestStatusReport: false,
    concatReference: 42,
  }).map((part) => {
    const decoded = decodePdu(part.hex);
    if (decoded.type !== 'submit') throw new Error('expected a submit');
    return decoded;
  });
}

describe('segment boundaries', () => {
  it('fits 160 GSM characters in one part without a header', () => {
    const parts = partsOf('a'.repeat(160));
    expect(parts).toHaveLength(1);
    expect(parts[0]?.headerElements).toEqual([]);
    expect(planText('a'.repeat(160))).toEqual({
      encoding: 'gsm7',
      parts: 1,
      unitsUsed: 160,
      unitsPerPart: 160,
      remainingInPart: 0,
    });
  });

  it('splits 161 GSM characters into 153 + 8', () => {
    const parts = partsOf('a'.repeat(161));
    expect(parts.map((part) => part.text?.length)).toEqual([153, 8]);
    expect(planText('a'.repeat(161))).toEqual({
      encoding: 'gsm7',
      parts: 2,
      unitsUsed: 161,
      unitsPerPart: 153,
      remainingInPart: 145,
    });
  });

  it('fits 70 UCS-2 units in one part and splits 71 into 67 + 4', () => {
    expect(partsOf('Ж'.repeat(70))).toHaveLength(1);
    expect(partsOf('Ж'.repeat(71)).map((part) => part.text?.length)).toEqual([67, 4]);
    expect(planText('Ж'.repeat(71))).toEqual({
      encoding: 'ucs2',
      parts: 2,
      unitsUsed: 71,
      unitsPerPart: 67,
      remainingInPart: 63,
    });
  });

  it('counts an extension character as two septets against the 160 limit', () => {
    expect(planText(`${'a'.repeat(158)}€`)).toMatchObject({ parts: 1, unitsUsed: 160, remainingInPart: 0 });
    expect(planText(`${'a'.repeat(159)}€`)).toMatchObject({ parts: 2, unitsUsed: 161 });
  });

  it('moves an extension character that would straddle the 153-septet boundary to the next part', () => {
    const message = `${'a'.repeat(152)}€${'b'.repeat(10)}`;
    const parts = partsOf(message);
    expect(parts.map((part) => part.text)).toEqual(['a'.repeat(152), `€${'b'.repeat(10)}`]);
    expect(planText(message)).toMatchObject({ parts: 2, unitsUsed: 164, remainingInPart: 153 - 12 });
  });

  it('moves a surrogate pair that would straddle the 67-unit boundary to the next part', () => {
    const message = `${'Ж'.repeat(66)}😀${'Ж'.repeat(5)}`;
    const parts = partsOf(message);
    expect(parts.map((part) => part.text)).toEqual(['Ж'.repeat(66), `😀${'Ж'.repeat(5)}`]);
    expect(planText(message)).toMatchObject({
      encoding: 'ucs2',
      parts: 2,
      unitsUsed: 73,
      remainingInPart: 60,
    });
  });

  it('plans an empty text as one part with all 160 septets free', () => {
    expect(planText('')).toEqual({
      encoding: 'gsm7',
      parts: 1,
      unitsUsed: 0,
      unitsPerPart: 160,
      remainingInPart: 160,
    });
  });

  it('switches the whole text to UCS-2 for one character outside the GSM tables', () => {
    expect(planText(`${'a'.repeat(100)}ç`)).toMatchObject({ encoding: 'ucs2', parts: 2, unitsUsed: 101 });
  });

  it('keeps counting past 255 parts instead of throwing, for the UI counter', () => {
    expect(planText('a'.repeat(153 * 300)).parts).toBe(300);
  });
});
