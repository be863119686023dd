import { describe, expect, it } from 'vitest';
import type { DecodedSubmit, SubmitOptions } from '../../server/contract/pdu/index.js';
import { decodePdu, encodeSubmit } from '../../server/contract/pdu/index.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { loadPduVectors } from './vectorFixture.js';

const vectors = loadPduVectors();
const DAY = 86_400;
const WEEK = 7 * DAY;

function vectorPdu(id: string): { pdu: string; tpduLength: number; text: string } {
  const vector = vectors.find((candidate) => candidate.id === id);
  if (vector === undefined) throw new Error(`no vector ${id}`);
  return { pdu: vector.pdu.toUpperCase(), tpduLength: vector.tpdu_length, text: vector.text ?? '' };
}

function submitOptions(overrides: Partial<SubmitOptions> & Pick<SubmitOptions, 'content'>): SubmitOptions {
  return { recipient: '+15551234567', requestStatusReport: false, concatReference: 0, ...overrides };
}

function decodeSubmit(hex: string): DecodedSubmit {
  const decoded = decodePdu(hex);
  if (decoded.type !== 'submit') throw new Error(`expected a submit, got ${decoded.type}`);
  return decoded;
}

function text(value: string): SubmitOptions['content'] {
  return { kind: 'text', text: value };
}

describe('encodeSubmit compared byte for byte with SUBMIT vectors', () => {
  const cases: [string, SubmitOptions][] = [
    ['gsmmodem-encode-01', submitOptions({ recipient: '+27820001111', content: text('Hello World!') })],
    [
      'gsmmodem-send-8D',
      submitOptions({
        recipient: '+0123456789',
        content: text('Helló worłd!'),
        requestStatusReport: true,
        messageReference: 141,
      }),
    ],
    [
      'gsmmodem-send-8E',
      submitOptions({
        recipient: '+0123456789',
        content: text('Hellò wor£d!'),
        requestStatusReport: true,
        messageReference: 142,
      }),
    ],
    [
      'gsmmodem-encode-03',
      submitOptions({
        recipient: '+123456789',
        smsc: '+44000000000',
        content: text('世界您好！'),
        validity: { kind: 'relative', seconds: 52 * WEEK },
      }),
    ],
    [
      'mm-create-ucs2-smsc',
      submitOptions({
        recipient: '+15555551234',
        smsc: '+19037029920',
        content: text('Да здравствует король, детка!'),
        validity: { kind: 'relative', seconds: 300 },
      }),
    ],
    [
      'mm-create-gsm-smsc',
      submitOptions({
        recipient: '+15555551234',
        smsc: '+19037029920',
        content: text('Hi there...Tue 17th Jan 2012 05:30.18 pm (GMT+1) ΔΔΔΔΔ'),
        validity: { kind: 'relative', seconds: 300 },
      }),
    ],
    [
      'mm-create-gsm-3',
      submitOptions({
        recipient: '+15556661234',
        content: text('This is really cool ΔΔΔΔΔ'),
        validity: { kind: 'relative', seconds: 300 },
      }),
    ],
    [
      'mm-create-gsm-no-validity',
      submitOptions({ recipient: '+15556661234', content: text('This is really cool ΔΔΔΔΔ') }),
    ],
    [
      'gammu-at-sms-encode-01',
      submitOptions({
        recipient: '1234',
        smsc: '1234',
        content: text('123456'),
        validity: { kind: 'relative', seconds: 63 * WEEK },
      }),
    ],
  ];

  it.each(cases)('reproduces %s', (id, options) => {
    const expected = vectorPdu(id);
    const [part, ...rest] = encodeSubmit(options);
    expect(rest).toHaveLength(0);
    expect(part).toEqual({
      hex: expected.pdu,
      tpduLength: expected.tpduLength,
      partNumber: 1,
      partsCount: 1,
    });
  });

  it("splits python-gsmmodem's 3-part Lorem ipsum exactly as its vectors, from the message reference on", () => {
    const ids = ['gsmmodem-concat-1', 'gsmmodem-concat-2', 'gsmmodem-concat-3'];
    const fullText = ids.map((id) => vectorPdu(id).text).join('');
    const parts = encodeSubmit(submitOptions({ recipient: '+15125551234', content: text(fullText) }));
    expect(parts.map((part) => part.partNumber)).toEqual([1, 2, 3]);
    // The vectors set TP-RD (first octet 0x45), which we never send; everything after it must match.
    expect(parts.map((part) => part.hex.slice(4))).toEqual(ids.map((id) => vectorPdu(id).pdu.slice(4)));
    expect(parts.map((part) => part.hex.slice(2, 4))).toEqual(['41', '41', '41']);
  });
});

describe('encodeSubmit then decodePdu', () => {
  it('round-trips GSM 7-bit text with its recipient, reference and no validity', () => {
    const [part] = encodeSubmit(submitOptions({ content: text('Hello @ £5 ¿ü?'), messageReference: 7 }));
    const decoded = decodeSubmit(part?.hex ?? '');
    expect(decoded).toMatchObject({
      encoding: 'gsm7',
      text: 'Hello @ £5 ¿ü?',
      recipient: { number: '+15551234567', type: 'international', typeOfAddress: 0x91 },
      messageReference: 7,
      statusReportRequested: false,
      rejectDuplicates: false,
      dataCodingScheme: 0x00,
    });
    expect(decoded.validity).toBeUndefined();
    expect(decoded.smsc).toBeUndefined();
  });

  it('round-trips every extension-table character as GSM 7-bit', () => {
    const extended = '{}[]~\\|^€\f';
    const [part] = encodeSubmit(submitOptions({ content: text(extended) }));
    expect(decodeSubmit(part?.hex ?? '')).toMatchObject({ encoding: 'gsm7', text: extended });
  });

  it('sends text with a character outside the GSM tables as UCS-2, emoji included', () => {
    const message = 'Grüße 😀 ç';
    const [part] = encodeSubmit(submitOptions({ content: text(message) }));
    expect(decodeSubmit(part?.hex ?? '')).toMatchObject({
      encoding: 'ucs2',
      text: message,
      dataCodingScheme: 0x08,
    });
  });

  it('encodes a national number without a plus as type unknown, digits kept', () => {
    const [part] = encodeSubmit(submitOptions({ recipient: '0612345678', content: text('hi') }));
    expect(decodeSubmit(part?.hex ?? '').recipient).toEqual({
      number: '0612345678',
      type: 'unknown',
      typeOfAddress: 0x81,
    });
  });

  it('sets TP-SRR only when a status report is requested', () => {
    const [withReport] = encodeSubmit(submitOptions({ content: text('x'), requestStatusReport: true }));
    const [withoutReport] = encodeSubmit(submitOptions({ content: text('x'), requestStatusReport: false }));
    expect(decodeSubmit(withReport?.hex ?? '').statusReportRequested).toBe(true);
    expect(decodeSubmit(withoutReport?.hex ?? '').statusReportRequested).toBe(false);
  });

  it('uses the given SMSC and reports the TPDU length without it', () => {
    const [part] = encodeSubmit(submitOptions({ content: text('x'), smsc: '+447785016005' }));
    const decoded = decodeSubmit(part?.hex ?? '');
    expect(decoded.smsc).toEqual({ number: '+447785016005', type: 'international', typeOfAddress: 0x91 });
    const smscOctets = Number.parseInt(part?.hex.slice(0, 2) ?? '', 16) + 1;
    expect(part?.tpduLength).toBe((part?.hex.length ?? 0) / 2 - smscOctets);
  });

  it.each([
    [300, 300],
    [301, 600],
    [2 * 3600, 2 * 3600],
    [12 * 3600 + 1, 12 * 3600 + 1800],
    [DAY, DAY],
    [DAY + 1, 2 * DAY],
    [30 * DAY + 1, 5 * WEEK],
    [63 * WEEK, 63 * WEEK],
    [100 * WEEK, 63 * WEEK],
  ])('rounds a relative validity of %i s up to %i s', (seconds, expected) => {
    const [part] = encodeSubmit(
      submitOptions({ content: text('v'), validity: { kind: 'relative', seconds } }),
    );
    expect(decodeSubmit(part?.hex ?? '').validity).toEqual({ kind: 'relative', seconds: expected });
  });

  it('round-trips an absolute validity with its time zone', () => {
    const at = Date.parse('2026-12-24T18:30:00+02:00');
    const [part] = encodeSubmit(
      submitOptions({ content: text('v'), validity: { kind: 'absolute', at, timezoneOffsetMinutes: 120 } }),
    );
    expect(decodeSubmit(part?.hex ?? '').validity).toEqual({
      kind: 'absolute',
      at,
      timezoneOffsetMinutes: 120,
    });
  });

  it('writes an absolute validity without a time zone in UTC', () => {
    const at = Date.parse('2026-01-02T03:04:05Z');
    const [part] = encodeSubmit(submitOptions({ content: text('v'), validity: { kind: 'absolute', at } }));
    expect(decodeSubmit(part?.hex ?? '').validity).toEqual({
      kind: 'absolute',
      at,
      timezoneOffsetMinutes: 0,
    });
  });

  it('splits a 400-character message into 3 parts that share the reference and reassemble', () => {
    const message = 'The quick brown fox jumps over the lazy dog. '.repeat(9).slice(0, 400);
    const parts = encodeSubmit(submitOptions({ content: text(message), concatReference: 201 }));
    expect(parts.map(({ partNumber, partsCount }) => [partNumber, partsCount])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const decoded = parts.map((part) => decodeSubmit(part.hex));
    expect(decoded.map((part) => part.concatenation)).toEqual(
      [1, 2, 3].map((partNumber) => ({
        reference: 201,
        partsCount: 3,
        partNumber,
        referenceBits: 8,
      })),
    );
    expect(decoded.map((part) => part.text?.length)).toEqual([153, 153, 94]);
    expect(decoded.map((part) => part.text).join('')).toBe(message);
  });

  it('keeps an emoji whole when it falls on a UCS-2 part boundary', () => {
    const message = `${'Ж'.repeat(66)}😀${'Ж'.repeat(70)}`;
    const parts = encodeSubmit(submitOptions({ content: text(message) }));
    const texts = parts.map((part) => decodeSubmit(part.hex).text ?? '');
    expect(texts[0]).toBe('Ж'.repeat(66));
    expect(texts[1]?.startsWith('😀')).toBe(true);
    expect(texts.join('')).toBe(message);
  });

  it('sends data with 16-bit ports as 8-bit, one part up to 133 octets', () => {
    const bytes = Uint8Array.from({ length: 133 }, (_, index) => index);
    const parts = encodeSubmit(
      submitOptions({ content: { kind: 'data', bytes, destinationPort: 2948, sourcePort: 9200 } }),
    );
    expect(parts).toHaveLength(1);
    const decoded = decodeSubmit(parts[0]?.hex ?? '');
    expect(decoded).toMatchObject({
      encoding: '8bit',
      ports: { destination: 2948, source: 9200 },
      dataCodingScheme: 0x04,
    });
    expect(decoded.text).toBeUndefined();
    expect(decoded.concatenation).toBeUndefined();
    expect(Array.from(decoded.bytes)).toEqual(Array.from(bytes));
  });

  it('splits larger data into 128-octet parts that each carry the ports', () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, index) => index & 0xff);
    const parts = encodeSubmit(
      submitOptions({ content: { kind: 'data', bytes, destinationPort: 16000 }, concatReference: 9 }),
    );
    const decoded = parts.map((part) => decodeSubmit(part.hex));
    expect(decoded.map((part) => part.bytes.length)).toEqual([128, 128, 44]);
    expect(decoded.every((part) => part.ports?.destination === 16000 && part.ports.source === 0)).toBe(true);
    expect(decoded.map((part) => part.concatenation?.partNumber)).toEqual([1, 2, 3]);
    expect(decoded.flatMap((part) => Array.from(part.bytes))).toEqual(Array.from(bytes));
  });

  it('sends an empty text as one empty GSM 7-bit part', () => {
    const parts = encodeSubmit(submitOptions({ content: text('') }));
    expect(parts).toHaveLength(1);
    expect(decodeSubmit(parts[0]?.hex ?? '')).toMatchObject({ encoding: 'gsm7', text: '' });
  });
});

describe('encodeSubmit rejecting what it cannot send', () => {
  it.each([
    ['an alphanumeric recipient', { recipient: 'Shop' }, ErrorCode.PduMalformed],
    ['an empty recipient', { recipient: '' }, ErrorCode.PduMalformed],
    ['a recipient of 21 digits', { recipient: `+${'1'.repeat(21)}` }, ErrorCode.PduMalformed],
    ['a message reference of 256', { messageReference: 256 }, ErrorCode.PduMalformed],
    ['an SMSC with letters', { smsc: '+44abc-1' }, ErrorCode.PduMalformed],
    ['a negative validity', { validity: { kind: 'relative', seconds: -1 } }, ErrorCode.PduMalformed],
    [
      'an absolute validity 7 minutes off UTC',
      { validity: { kind: 'absolute', at: 0, timezoneOffsetMinutes: 7 } },
      ErrorCode.PduUnsupported,
    ],
    [
      'a concatenation reference of 300 on a long text',
      { content: text('a'.repeat(200)), concatReference: 300 },
      ErrorCode.PduMalformed,
    ],
    ['text needing 256 parts', { content: text('a'.repeat(153 * 255 + 1)) }, ErrorCode.MessageTooLong],
    [
      'a destination port above 65535',
      { content: { kind: 'data', bytes: new Uint8Array(1), destinationPort: 70000 } },
      ErrorCode.PduMalformed,
    ],
  ] as [string, Partial<SubmitOptions>, number][])('rejects %s', (_name, overrides, code) => {
    expect(() => encodeSubmit(submitOptions({ content: text('x'), ...overrides }))).toThrow(
      expect.objectContaining({ name: 'GatewayError', code }),
    );
  });

  it('accepts exactly 255 parts', () => {
    expect(encodeSubmit(submitOptions({ content: text('a'.repeat(153 * 255)) }))).toHaveLength(255);
  });
});
