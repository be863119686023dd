import { describe, expect, it } from 'vitest';
import type { DecodedDeliver, DecodedStatusReport, DeliverOptions } from '../../server/contract/pdu/index.js';
import { decodePdu, encodeDeliver, encodeStatusReport } from '../../server/contract/pdu/index.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';

const RECEIVED = { epochMs: Date.parse('2026-11-22T05:10:42+03:00'), timezoneOffsetMinutes: 180 };

function decodeDeliver(hex: string): DecodedDeliver {
  const decoded = decodePdu(hex);
  if (decoded.type !== 'deliver') throw new Error(`expected a deliver, got ${decoded.type}`);
  return decoded;
}

function decodeReport(hex: string): DecodedStatusReport {
  const decoded = decodePdu(hex);
  if (decoded.type !== 'status-report') throw new Error(`expected a status report, got ${decoded.type}`);
  return decoded;
}

function deliverOptions(overrides: Partial<DeliverOptions> = {}): DeliverOptions {
  return {
    sender: '+447700900123',
    content: { kind: 'text', text: 'Hi there' },
    timestamp: RECEIVED,
    ...overrides,
  };
}

describe('encodeDeliver then decodePdu', () => {
  it('round-trips sender, time stamp with zone, and GSM 7-bit text', () => {
    const [pdu] = encodeDeliver(deliverOptions({ smsc: '+447785016005' }));
    expect(decodeDeliver(pdu?.hex ?? '')).toMatchObject({
      sender: { number: '+447700900123', type: 'international', typeOfAddress: 0x91 },
      smsc: { number: '+447785016005', type: 'international' },
      timestamp: RECEIVED,
      encoding: 'gsm7',
      text: 'Hi there',
      moreMessagesToSend: false,
      statusReportIndication: false,
      replyPath: false,
      protocolId: 0,
    });
  });

  it('encodes a named sender as an alphanumeric address', () => {
    const [pdu] = encodeDeliver(deliverOptions({ sender: 'Megafon' }));
    expect(decodeDeliver(pdu?.hex ?? '').sender).toEqual({
      number: 'Megafon',
      type: 'alphanumeric',
      typeOfAddress: 0xd0,
    });
  });

  it('rejects a named sender longer than 11 GSM characters', () => {
    expect(() => encodeDeliver(deliverOptions({ sender: 'TwelveLetter' }))).toThrow(
      expect.objectContaining({ code: ErrorCode.PduMalformed, field: 'sender' }),
    );
  });

  it('reports the TPDU length as the octets after the SMSC field', () => {
    const [pdu] = encodeDeliver(deliverOptions());
    expect(pdu?.hex.startsWith('00')).toBe(true);
    expect(pdu?.tpduLength).toBe((pdu?.hex.length ?? 0) / 2 - 1);
  });

  it('splits long UCS-2 text into parts that say more messages follow until the last', () => {
    const message = 'Привет! '.repeat(20);
    const pdus = encodeDeliver(
      deliverOptions({ content: { kind: 'text', text: message }, concatReference: 77 }),
    );
    const decoded = pdus.map((pdu) => decodeDeliver(pdu.hex));
    expect(decoded.map((part) => part.moreMessagesToSend)).toEqual([true, true, false]);
    expect(decoded.map((part) => part.concatenation?.reference)).toEqual([77, 77, 77]);
    expect(decoded.map((part) => part.text).join('')).toBe(message);
  });

  it('round-trips data sent to an application port', () => {
    const bytes = Uint8Array.from([0x01, 0x06, 0x27, 0xff, 0x00]);
    const [pdu] = encodeDeliver(
      deliverOptions({ content: { kind: 'data', bytes, destinationPort: 2948, sourcePort: 9200 } }),
    );
    const decoded = decodeDeliver(pdu?.hex ?? '');
    expect(decoded).toMatchObject({ encoding: '8bit', ports: { destination: 2948, source: 9200 } });
    expect(Array.from(decoded.bytes)).toEqual(Array.from(bytes));
  });

  it('round-trips a negative time zone', () => {
    const timestamp = { epochMs: Date.parse('2011-02-28T11:50:50-05:00'), timezoneOffsetMinutes: -300 };
    const [pdu] = encodeDeliver(deliverOptions({ timestamp }));
    expect(decodeDeliver(pdu?.hex ?? '').timestamp).toEqual(timestamp);
  });
});

describe('encodeStatusReport then decodePdu', () => {
  it('round-trips reference, recipient, both time stamps and the status', () => {
    const options = {
      messageReference: 203,
      recipient: '+61439012244',
      serviceCentreTimestamp: {
        epochMs: Date.parse('2010-09-17T10:01:00+10:00'),
        timezoneOffsetMinutes: 600,
      },
      dischargeTime: { epochMs: Date.parse('2010-09-17T10:01:54+10:00'), timezoneOffsetMinutes: 600 },
      status: 0x00,
      smsc: '+61418706700',
    };
    const pdu = encodeStatusReport(options);
    const decoded = decodeReport(pdu.hex);
    expect(decoded).toEqual({
      type: 'status-report',
      smsc: { number: '+61418706700', type: 'international', typeOfAddress: 0x91 },
      messageReference: 203,
      recipient: { number: '+61439012244', type: 'international', typeOfAddress: 0x91 },
      serviceCentreTimestamp: options.serviceCentreTimestamp,
      dischargeTime: options.dischargeTime,
      status: 0,
    });
    const smscOctets = Number.parseInt(pdu.hex.slice(0, 2), 16) + 1;
    expect(pdu.tpduLength).toBe(pdu.hex.length / 2 - smscOctets);
  });

  it('carries a permanent failure status such as 0x41 (incompatible destination)', () => {
    const pdu = encodeStatusReport({
      messageReference: 1,
      recipient: '0612345678',
      serviceCentreTimestamp: RECEIVED,
      dischargeTime: RECEIVED,
      status: 0x41,
    });
    expect(decodeReport(pdu.hex)).toMatchObject({
      status: 0x41,
      recipient: { number: '0612345678', type: 'unknown' },
    });
  });

  it('rejects a status that does not fit an octet', () => {
    expect(() =>
      encodeStatusReport({
        messageReference: 1,
        recipient: '+1555',
        serviceCentreTimestamp: RECEIVED,
        dischargeTime: RECEIVED,
        status: 256,
      }),
    ).toThrow(expect.objectContaining({ code: ErrorCode.PduMalformed, field: 'status' }));
  });
});
