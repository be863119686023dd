import { describe, expect, it } from 'vitest';
import { encodeAddressField, readAddressField } from '../../server/contract/pdu/address.js';
import { interpretDataCodingScheme } from '../../server/contract/pdu/dataCoding.js';
import { bytesToHex, hexToBytes } from '../../server/contract/pdu/hex.js';
import { decodePdu } from '../../server/contract/pdu/index.js';
import { OctetReader } from '../../server/contract/pdu/octetReader.js';
import { decodeTimestamp, encodeTimestamp } from '../../server/contract/pdu/timestamp.js';
import { parseUserDataHeader } from '../../server/contract/pdu/udh.js';
import { relativeValidityOctet, relativeValiditySeconds } from '../../server/contract/pdu/validity.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';

const malformed = expect.objectContaining({ name: 'GatewayError', code: ErrorCode.PduMalformed });

describe('hex helpers', () => {
  it('accepts lowercase and writes uppercase', () => {
    expect(bytesToHex(hexToBytes('00ff1a'))).toBe('00FF1A');
  });

  it.each(['0', 'GG', '0 1'])('rejects %j as PduMalformed', (hex) => {
    expect(() => hexToBytes(hex)).toThrow(malformed);
  });
});

describe('addresses', () => {
  function read(hex: string) {
    return readAddressField(new OctetReader(hexToBytes(hex)), 'TP-OA');
  }

  it('reads an odd-length number and stops at the F filler', () => {
    expect(read('0B917228214365F7')).toEqual({
      number: '+27821234567',
      type: 'international',
      typeOfAddress: 0x91,
    });
  });

  it('reads a national number without a plus', () => {
    expect(read('0AA11062452143')).toEqual({ number: '0126541234', type: 'national', typeOfAddress: 0xa1 });
  });

  it('keeps non-decimal nibbles as the TS 23.040 §9.1.2.3 symbols', () => {
    expect(read('0581BADCF0')).toEqual({ number: '*#ab0', type: 'unknown', typeOfAddress: 0x81 });
  });

  it('reads an alphanumeric sender packed as GSM 7-bit', () => {
    expect(read('0DD0D432DBFC96D301')).toMatchObject({ number: 'Telfort', type: 'alphanumeric' });
  });

  it('writes and reads back an alphanumeric sender with an extension character', () => {
    const field = encodeAddressField('Shop€', { field: 'sender', allowAlphanumeric: true });
    expect(read(bytesToHex(Uint8Array.from(field)))).toEqual({
      number: 'Shop€',
      type: 'alphanumeric',
      typeOfAddress: 0xd0,
    });
  });

  it('rejects an address whose digits run past the PDU', () => {
    expect(() => read('0B9172')).toThrow(malformed);
  });
});

describe('time stamps', () => {
  it('reads a service-centre time stamp with a positive zone', () => {
    expect(decodeTimestamp(hexToBytes('31308051206180'), 'TP-SCTS')).toEqual({
      epochMs: Date.parse('2013-03-08T15:02:16+02:00'),
      timezoneOffsetMinutes: 120,
    });
  });

  it('reads the sign bit of the zone as west of UTC', () => {
    expect(decodeTimestamp(hexToBytes('1120821105050A'), 'TP-SCTS').timezoneOffsetMinutes).toBe(-300);
  });

  it('reads a two-digit year 99 as 1999', () => {
    expect(new Date(decodeTimestamp(hexToBytes('99309251619580'), 'TP-SCTS').epochMs).getUTCFullYear()).toBe(
      1999,
    );
  });

  it.each([
    ['month 13', '13310000000000'],
    ['31 February', '21201300000000'],
    ['hour 24', '21101042000000'],
    ['a non-BCD minute', '211010000A0000'],
  ])('rejects %s as PduMalformed', (_name, hex) => {
    expect(() => decodeTimestamp(hexToBytes(hex), 'TP-SCTS')).toThrow(malformed);
  });

  it.each([0, 330, -210, 780, -600])(
    'round-trips a time stamp in zone %i minutes',
    (timezoneOffsetMinutes) => {
      const timestamp = { epochMs: Date.parse('2031-07-15T23:59:58Z'), timezoneOffsetMinutes };
      expect(decodeTimestamp(Uint8Array.from(encodeTimestamp(timestamp, 'ts')), 'ts')).toEqual(timestamp);
    },
  );

  it('refuses a year outside 1969..2068 it could not write in two digits', () => {
    expect(() =>
      encodeTimestamp({ epochMs: Date.parse('2070-01-01T00:00:00Z'), timezoneOffsetMinutes: 0 }, 'ts'),
    ).toThrow(expect.objectContaining({ code: ErrorCode.PduUnsupported }));
  });
});

describe('relative validity (TS 23.040 §9.2.3.12.1)', () => {
  it.each([
    [0, 5 * 60],
    [143, 12 * 3600],
    [144, 12 * 3600 + 30 * 60],
    [167, 24 * 3600],
    [168, 2 * 86_400],
    [196, 30 * 86_400],
    [197, 5 * 7 * 86_400],
    [255, 63 * 7 * 86_400],
  ])('TP-VP %i lasts %i seconds', (vp, seconds) => {
    expect(relativeValiditySeconds(vp)).toBe(seconds);
    expect(relativeValidityOctet(seconds)).toBe(vp);
  });

  it.each([
    ['relative TP-VP octet', '01A70000000000', 3600 * 24],
    ['seconds', '023C0000000000', 60],
    ['semi-octet hh mm ss', '03203000000000', 2 * 3600 + 3 * 60],
  ])('reads an enhanced validity given as %s (TS 23.040 §9.2.3.12.3)', (_name, vp, seconds) => {
    // SUBMIT with TP-VPF 01 (first octet 0x09) to +1555, empty GSM 7-bit text.
    const decoded = decodePdu(`000900049151550000${vp}00`);
    expect(decoded).toMatchObject({ type: 'submit', validity: { kind: 'relative', seconds } });
  });

  it('reads an enhanced validity with no period as none, consuming its seven octets', () => {
    const decoded = decodePdu('0009000491515500000000000000000000');
    expect(decoded).toMatchObject({ type: 'submit', text: '' });
    expect(decoded.type === 'submit' && decoded.validity).toBe(undefined);
  });

  it('rounds zero seconds up to the 5-minute minimum', () => {
    expect(relativeValidityOctet(0)).toBe(0);
  });
});

describe('data coding schemes (TS 23.038 §4)', () => {
  it.each([
    ['00', { encoding: 'gsm7', compressed: false }],
    ['04', { encoding: '8bit', compressed: false }],
    ['08', { encoding: 'ucs2', compressed: false }],
    ['0C', { encoding: 'gsm7', compressed: false }],
    ['10', { encoding: 'gsm7', messageClass: 0, compressed: false }],
    ['19', { encoding: 'ucs2', messageClass: 1, compressed: false }],
    ['20', { encoding: '8bit', compressed: true }],
    ['48', { encoding: 'ucs2', compressed: false }],
    ['90', { encoding: 'gsm7', compressed: false }],
    ['C8', { encoding: 'gsm7', compressed: false }],
    ['E0', { encoding: 'ucs2', compressed: false }],
    ['F1', { encoding: 'gsm7', messageClass: 1, compressed: false }],
    ['F6', { encoding: '8bit', messageClass: 2, compressed: false }],
  ])('reads DCS 0x%s', (dcs, expected) => {
    expect(interpretDataCodingScheme(Number.parseInt(dcs, 16))).toEqual(expected);
  });
});

describe('user data headers', () => {
  it('keeps unknown elements raw and interprets concatenation and 8-bit ports', () => {
    const header = parseUserDataHeader(hexToBytes('0A0301020300031202020402F0F1'));
    expect(header.elements.map((element) => element.iei)).toEqual([0x0a, 0x00, 0x04]);
    expect(header.concatenation).toEqual({ reference: 0x12, partsCount: 2, partNumber: 2, referenceBits: 8 });
    expect(header.ports).toEqual({ destination: 0xf0, source: 0xf1 });
  });

  it('ignores a concatenation element whose part number exceeds the count (TS 23.040 §9.2.3.24.1)', () => {
    const header = parseUserDataHeader(hexToBytes('0003120203'));
    expect(header.concatenation).toBeUndefined();
    expect(header.elements).toHaveLength(1);
  });

  it('rejects an element that overruns the header', () => {
    expect(() => parseUserDataHeader(hexToBytes('000512'))).toThrow(malformed);
  });
});

describe('decodePdu on hostile input', () => {
  it('rejects TP-MTI 3 as unsupported', () => {
    expect(() => decodePdu('0003')).toThrow(expect.objectContaining({ code: ErrorCode.PduUnsupported }));
  });

  it('rejects an empty PDU as malformed', () => {
    expect(() => decodePdu('')).toThrow(malformed);
  });

  it('rejects a UDH longer than the user data as malformed', () => {
    expect(() => decodePdu('0044049151550000621010000000000206FF')).toThrow(malformed);
  });

  it('hands compressed text (TS 23.038 §4 bit 5) over as 8-bit data without text', () => {
    const decoded = decodePdu('00040491515500206210100000000003AABBCC');
    expect(decoded).toMatchObject({ type: 'deliver', encoding: '8bit', dataCodingScheme: 0x20 });
    expect(decoded.type === 'deliver' && Array.from(decoded.bytes)).toEqual([0xaa, 0xbb, 0xcc]);
    expect(decoded.type === 'deliver' && decoded.text).toBe(undefined);
  });

  it('ignores status report padding whose TP-PI has reserved bits set', () => {
    const decoded = decodePdu('0006230E912698357516949861010340954482610103409544820000FFFFFFFF');
    expect(decoded).toMatchObject({ type: 'status-report', status: 0 });
    expect(decoded.type === 'status-report' && decoded.userData).toBe(undefined);
  });
});

describe('address fields (TS 23.040 §9.1.2.5)', () => {
  it('refuses an address length of more than 20 digits, as 129 would read past the field', () => {
    // Length 0x81 (129 semi-octets), international type, then enough octets that a decoder that
    // trusts the length reads the rest of the PDU as digits.
    const field = hexToBytes(`8191${'21'.repeat(65)}`);
    expect(() => readAddressField(new OctetReader(field), 'TP-DA')).toThrow(
      expect.objectContaining({ code: ErrorCode.PduMalformed, field: 'TP-DA' }),
    );
    const twenty = hexToBytes(`1491${'21'.repeat(10)}`);
    expect(readAddressField(new OctetReader(twenty), 'TP-DA').number).toBe(`+${'12'.repeat(10)}`);
  });
});
