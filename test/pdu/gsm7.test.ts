import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALPHABET,
  DEFAULT_EXTENSION,
  decodeGsm7,
  ESCAPE,
  septetsOfCharacter,
  toGsm7Characters,
} from '../../server/contract/pdu/gsm7.js';
import { bytesToHex } from '../../server/contract/pdu/hex.js';
import type { DecodedDeliver } from '../../server/contract/pdu/index.js';
import { decodePdu } from '../../server/contract/pdu/index.js';
import { NationalLanguage } from '../../server/contract/pdu/nationalLanguage.js';
import { packSeptets, unpackSeptets } from '../../server/contract/pdu/septets.js';
import type { HeaderElement } from '../../server/contract/pdu/types.js';
import { encodeUserData } from '../../server/contract/pdu/userData.js';

/** A DELIVER from +1555 at 2026-01-01 00:00 UTC carrying `septets` behind the given UDH elements. */
function deliverWithSeptets(elements: HeaderElement[], septets: number[]): DecodedDeliver {
  const firstOctet = elements.length > 0 ? 0x44 : 0x04;
  const header = [
    0x00,
    firstOctet,
    0x04,
    0x91,
    0x51,
    0x55,
    0x00,
    0x00,
    0x62,
    0x10,
    0x10,
    0x00,
    0x00,
    0x00,
    0x00,
  ];
  const userData = encodeUserData({ encoding: 'gsm7', septets }, elements);
  const decoded = decodePdu(bytesToHex(Uint8Array.from([...header, ...userData])));
  if (decoded.type !== 'deliver') throw new Error('expected a deliver');
  return decoded;
}

function language(iei: number, id: number): HeaderElement {
  return { iei, data: Uint8Array.from([id]) };
}

const LOCKING = 0x25;
const SINGLE = 0x24;

describe('the GSM 7-bit default alphabet', () => {
  it('has 128 characters and the ten extension characters of TS 23.038 §6.2.1.1', () => {
    expect([...DEFAULT_ALPHABET]).toHaveLength(128);
    expect([...DEFAULT_EXTENSION.values()].join('')).toBe('\f^{}\\[~]|€');
  });

  it('round-trips every character of both tables through septets', () => {
    const characters = `${[...DEFAULT_ALPHABET].filter((_, septet) => septet !== ESCAPE).join('')}\f^{}\\[~]|€`;
    const septets = toGsm7Characters(characters)?.flat() ?? [];
    expect(decodeGsm7(septets)).toBe(characters);
  });

  it('writes extension characters as ESC + septet', () => {
    expect(septetsOfCharacter('€')).toEqual([0x1b, 0x65]);
    expect(septetsOfCharacter('@')).toEqual([0x00]);
    expect(septetsOfCharacter('ç')).toBeUndefined();
  });

  it('shows the default character for an escape the extension table lacks, and a space for ESC ESC', () => {
    expect(decodeGsm7([0x1b, 0x41, 0x1b, 0x1b, 0x42])).toBe('A B');
  });

  it('packs "hellohello" into the octets a real modem sent (gammu at-sms 09)', () => {
    const septets = toGsm7Characters('hellohello')?.flat() ?? [];
    expect(bytesToHex(packSeptets(septets))).toBe('E8329BFD4697D9EC37');
  });

  it('starts text after a 6-octet header on the next septet boundary, one fill bit later', () => {
    const header = Uint8Array.from([0x05, 0x00, 0x03, 0x2a, 0x02, 0x01]);
    const packed = packSeptets([0x7f], header);
    // Header: 48 bits; text septet at bits 49..55 of octet 6, bit 48 is the fill bit.
    expect(bytesToHex(packed)).toBe('0500032A0201FE');
    expect(unpackSeptets(packed, 7, 1)).toEqual([0x7f]);
  });
});

describe('national language shift tables in received messages', () => {
  it('decodes the Turkish locking shift table (IEI 0x25, language 1)', () => {
    const decoded = deliverWithSeptets(
      [language(LOCKING, NationalLanguage.Turkish)],
      [0x07, 0x40, 0x1c, 0x60, 0x04],
    );
    expect(decoded.text).toBe('ıİŞç€');
  });

  it('decodes the Turkish single shift table (IEI 0x24, language 1)', () => {
    const decoded = deliverWithSeptets(
      [language(SINGLE, NationalLanguage.Turkish)],
      [0x1b, 0x47, 0x1b, 0x73, 0x41],
    );
    expect(decoded.text).toBe('ĞşA');
  });

  it('decodes the Spanish single shift table with the default locking table', () => {
    const decoded = deliverWithSeptets(
      [language(SINGLE, NationalLanguage.Spanish)],
      [0x1b, 0x41, 0x1b, 0x75, 0x07],
    );
    expect(decoded.text).toBe('Áúì');
  });

  it('decodes Portuguese locking and single shift together', () => {
    const decoded = deliverWithSeptets(
      [language(LOCKING, NationalLanguage.Portuguese), language(SINGLE, NationalLanguage.Portuguese)],
      [0x5b, 0x7b, 0x1b, 0x05, 0x1b, 0x28, 0x10],
    );
    expect(decoded.text).toBe('Ããê{Δ');
  });

  it('keeps the language elements raw in headerElements', () => {
    const decoded = deliverWithSeptets([language(LOCKING, NationalLanguage.Turkish)], [0x41]);
    expect(decoded.headerElements).toEqual([{ iei: 0x25, data: Uint8Array.from([1]) }]);
  });

  it('falls back to the default tables for a language it does not hold', () => {
    const decoded = deliverWithSeptets([language(LOCKING, 0x0d), language(SINGLE, 0x0d)], [0x07, 0x1b, 0x65]);
    expect(decoded.text).toBe('ì€');
  });
});
