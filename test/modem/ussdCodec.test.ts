import { describe, expect, it } from 'vitest';
import {
  alphabetOfDcs,
  decodeUssdString,
  encodeUssdString,
  parseCusd,
} from '../../server/modem/ussdCodec.js';

describe('USSD strings (TS 27.007 §7.15, TS 23.038 §5)', () => {
  it.each([
    [0x0f, 'gsm7'],
    [0x00, 'gsm7'],
    [0x10, 'gsm7'],
    [0x11, 'ucs2'],
    [0x44, '8bit'],
    [0x48, 'ucs2'],
    [0xf0, 'gsm7'],
    [0xf4, '8bit'],
  ] as const)('reads DCS %i as %s', (dcs, alphabet) => {
    expect(alphabetOfDcs(dcs)).toBe(alphabet);
  });

  it.each([
    // Huawei users type these by hand: *100# and *101#, packed.
    ['*100#', 'AA180C3602'],
    ['*101#', 'AA182C3602'],
    // Seven characters leave 7 spare bits: filled with CR, never read as "@".
    ['1234567', '31D98C56B3DD1A'],
  ])('packs %s as %s for Huawei sticks, and reads it back', (text, hex) => {
    expect(encodeUssdString(text, 'packed-hex')).toBe(hex);
    expect(decodeUssdString(hex, 15, 'packed-hex')).toBe(text);
  });

  it('keeps text as text on modems that answer in text, even when it looks like hex', () => {
    expect(decodeUssdString('12345678', 15, 'text')).toBe('12345678');
    expect(encodeUssdString('*100#', 'text')).toBe('*100#');
  });

  it('reads UCS-2 hex answers (DCS 72) whatever the modem form', () => {
    expect(decodeUssdString('04110430043B0430043D0441', 72, 'text')).toBe('Баланс');
    expect(decodeUssdString('04110430043B0430043D0441', 72, 'packed-hex')).toBe('Баланс');
  });

  it('refuses a request GSM 7-bit cannot spell in packed form', () => {
    expect(encodeUssdString('Баланс', 'packed-hex')).toBeUndefined();
  });

  it.each([
    ['0,"Your balance is 1.00",15', { status: 0, text: 'Your balance is 1.00', dcs: 15 }],
    ['1,"Menu",72', { status: 1, text: 'Menu', dcs: 72 }],
    ['2', { status: 2 }],
    [' 4', { status: 4 }],
    ['0,"no dcs"', { status: 0, text: 'no dcs' }],
  ])('parses +CUSD: %s', (args, result) => {
    expect(parseCusd(args)).toEqual(result);
  });

  it('gives nothing for a +CUSD line without a status', () => {
    expect(parseCusd('"text"')).toBeUndefined();
  });
});
