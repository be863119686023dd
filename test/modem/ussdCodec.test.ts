import { describe, expect, it } from 'vitest';
import {
  alphabetOfDcs,
  decodeUssdString,
  encodeUssdString,
  parseCusd,
} from '../../server/devices/modem/ussdCodec.js';

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
    expect(encodeUssdString(text, 'packed-hex', undefined)).toBe(hex);
    expect(decodeUssdString(hex, 15, 'packed-hex', undefined)).toBe(text);
  });

  it('keeps text as text on modems that answer in text, even when it looks like hex', () => {
    expect(decodeUssdString('12345678', 15, 'text', 'IRA')).toBe('12345678');
    expect(encodeUssdString('*100#', 'text', 'IRA')).toBe('*100#');
    expect(decodeUssdString('12345678', 15, 'text', undefined)).toBe('12345678');
  });

  it('reads and writes text in the modem character set (+CSCS)', () => {
    // TS 23.038 §6.2.1: ä is septet 0x7B, which Latin-1 reads as "{".
    expect(decodeUssdString('Bitte w{hlen Sie', 15, 'text', 'GSM')).toBe('Bitte wählen Sie');
    expect(encodeUssdString('Grüße', 'text', 'GSM')).toBe('Gr~\x1ee');
    expect(decodeUssdString('Gr~\x1ee', 15, 'text', 'GSM')).toBe('Grüße');
    // "UCS2": the default alphabet's text as hex of UTF-16 code units, both ways.
    expect(decodeUssdString('002A0031003000300023', 15, 'text', 'UCS2')).toBe('*100#');
    expect(encodeUssdString('*100#', 'text', 'UCS2')).toBe('002A0031003000300023');
    // "HEX": each septet as two hex digits.
    expect(decodeUssdString('77 7B'.replace(' ', ''), 15, 'text', 'HEX')).toBe('wä');
    // IRA is 7-bit: a request it cannot spell is refused, not garbled.
    expect(encodeUssdString('1ä', 'text', 'IRA')).toBeUndefined();
    expect(encodeUssdString('1ä', 'text', '8859-1')).toBe('1ä');
  });

  it('reads UCS-2 hex answers (DCS 72) whatever the modem form', () => {
    expect(decodeUssdString('04110430043B0430043D0441', 72, 'text', 'GSM')).toBe('Баланс');
    expect(decodeUssdString('04110430043B0430043D0441', 72, 'packed-hex', undefined)).toBe('Баланс');
  });

  it('refuses a request GSM 7-bit cannot spell in packed form', () => {
    expect(encodeUssdString('Баланс', 'packed-hex', undefined)).toBeUndefined();
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
