import { describe, expect, it } from 'vitest';
import { contentOfParts, readSubmittedPart } from '../../server/doors/smpp/shortMessage.js';
import { SmppStatus } from '../../server/doors/smpp/smppStatus.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const base = { esmClass: 0, dataCoding: 0, shortMessage: bytes() };

describe('a submit_sm short message', () => {
  it.each([
    // TS 23.040 §9.2.3.24.1: IEI 0x00, 8-bit reference 0x2A, 3 parts, this is the 2nd.
    [
      'an 8-bit reference UDH',
      bytes(5, 0x00, 3, 0x2a, 3, 2, 0x41),
      { reference: 0x2a, total: 3, sequence: 2 },
      [0x41],
    ],
    // §9.2.3.24.8: IEI 0x08, 16-bit reference.
    [
      'a 16-bit reference UDH',
      bytes(6, 0x08, 4, 0x12, 0x34, 2, 1, 0x42),
      { reference: 0x1234, total: 2, sequence: 1 },
      [0x42],
    ],
  ])('reads %s', (_name, shortMessage, concatenation, rest) => {
    const read = readSubmittedPart({ ...base, esmClass: 0x40, shortMessage });
    expect(read).toEqual({
      ok: true,
      part: { encoding: 'gsm7', bytes: Uint8Array.from(rest), concatenation },
    });
  });

  it('reads the destination port of a 16-bit port UDH (§9.2.3.24.4) for binary data', () => {
    const read = readSubmittedPart({
      ...base,
      esmClass: 0x40,
      dataCoding: 4,
      shortMessage: bytes(6, 0x05, 4, 0x3e, 0x80, 0, 0, 0xff),
    });
    expect(read).toEqual({ ok: true, part: { encoding: 'binary', bytes: bytes(0xff), port: 16000 } });
  });

  it('takes the SAR TLVs, and a whole message from message_payload', () => {
    expect(
      readSubmittedPart({ ...base, shortMessage: bytes(0x41), sar: { reference: 7, total: 2, sequence: 2 } }),
    ).toMatchObject({ ok: true, part: { concatenation: { reference: 7, total: 2, sequence: 2 } } });
    expect(readSubmittedPart({ ...base, messagePayload: bytes(0x41, 0x42) })).toMatchObject({
      ok: true,
      part: { bytes: bytes(0x41, 0x42) },
    });
  });

  it.each([
    ['an unsupported data_coding', { dataCoding: 0xf0 }, SmppStatus.ESME_RINVDCS],
    [
      'a UDH longer than the message',
      { esmClass: 0x40, shortMessage: bytes(9, 0, 3) },
      SmppStatus.ESME_RINVESMCLASS,
    ],
    [
      'text in both short_message and message_payload',
      { shortMessage: bytes(1), messagePayload: bytes(2) },
      SmppStatus.ESME_RINVTLVVAL,
    ],
    [
      'a part number beyond the total',
      { sar: { reference: 1, total: 2, sequence: 3 }, shortMessage: bytes(1) },
      SmppStatus.ESME_RINVTLVVAL,
    ],
  ])('refuses %s', (_name, fields, status) => {
    expect(readSubmittedPart({ ...base, ...fields })).toMatchObject({ ok: false, status });
  });

  it('joins UCS-2 parts before decoding, so a surrogate pair split between parts survives', () => {
    const text = 'ab😀c';
    const all = Buffer.from(text, 'utf16le').swap16();
    // The emoji's high surrogate ends part 1, its low surrogate starts part 2.
    const content = contentOfParts('ucs2', [all.subarray(0, 6), all.subarray(6)], undefined);
    expect(content).toEqual({ ok: true, content: { kind: 'text', text } });
  });

  it('decodes data_coding 0 as the GSM 03.38 default alphabet, one septet per octet', () => {
    // 0x00 is "@", 0x11 "_", 0x1B 0x65 the euro sign from the extension table.
    expect(contentOfParts('gsm7', [bytes(0x00, 0x11, 0x1b, 0x65)], undefined)).toEqual({
      ok: true,
      content: { kind: 'text', text: '@_€' },
    });
  });
});
