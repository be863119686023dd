import { describe, expect, it } from 'vitest';
import type { Address, DecodedPdu, Timestamp, UserData } from '../../server/contract/pdu/index.js';
import { decodePdu } from '../../server/contract/pdu/index.js';
import { relativeValiditySeconds } from '../../server/contract/pdu/validity.js';
import { hexOf, loadPduVectors, type PduVector, type VectorAddress } from './vectorFixture.js';

const vectors = loadPduVectors();

/**
 * Every vector on which gammu 1.42 or python-gsmmodem disagree with the recorded fields, and
 * why the recorded (3GPP) reading is the one this decoder follows.
 */
const RULINGS: Record<string, string> = {
  'gsmmodem-decode-08':
    'TP-UDL announces 160 octets but 10 follow. TS 23.040 does not define a receiver reaction; ' +
    'a truncated UCS-2 body is decoded as far as it goes (like python-gsmmodem) instead of losing the message (gammu).',
  'gsmmodem-decode-11-zte-broken-sr':
    'TS 23.040 §9.1.2.3 gives semi-octet 1011 the symbol "#", so the corrupt recipient reads "+#0842…"; ' +
    'gammu drops the nibble and python-gsmmodem prints it as hex. See EXPECTED_OVERRIDES.',
  'mm-pdu1':
    'TP-UDL counts septets including each ESC (TS 23.038 §6.2.1.1); python-gsmmodem stops early by counting characters.',
  'mm-pdu-udhi':
    'A 7-octet UDH fills exactly 8 septets, so text starts at septet 8 with no fill bits (TS 23.040 §9.2.3.24); ' +
    'python-gsmmodem skips one septet too many.',
  'nodepdu-parser-09': 'Same as mm-pdu-udhi: a 16-bit concatenation UDH is 7 octets, 0 fill bits.',
  'nodepdu-parser-10': 'Same as mm-pdu-udhi.',
  'nodepdu-parser-11': 'Same as mm-pdu-udhi.',
  'nodepdu-parser-12': 'Same as mm-pdu-udhi.',
  'nodepdu-parser-13': 'Same as mm-pdu-udhi.',
  'nodepdu-parser-16': 'A 21-octet EMS header is 24 septets: 0 fill bits here too (TS 23.040 §9.2.3.24).',
  'gammu-at-sms-20':
    'TP-UDHI set with TP-UDL 0: there is no header to parse; an empty message, not an error.',
  'gammu-at-sms-24':
    'The SMSC field is an RP address (TS 24.011) whose length counts octets: length 1 is the type octet alone, an empty number.',
  'gammu-at-sms-26':
    'An 8-bit UD entirely taken by a 131-octet UDH (IEI 0x12, EMS picture) is valid: the payload is empty.',
  'gammu-at-sms-31':
    'TP-DA length 0 means no digit octets follow (TS 23.040 §9.1.2.5); python-gsmmodem misaligns everything after.',
  'gammu-at-sms-39': 'Octets after TP-UDL are not user data (TS 23.040 §9.2.3.16); they are ignored.',
  'gammu-at-sms-41':
    'Truncated GSM 7-bit user data is decoded as far as it goes, like python-gsmmodem; gammu rejects the PDU.',
  'gammu-at-sms-42':
    'DCS 0xFB: bit 3 of coding group 1111 is reserved and ignored (TS 23.038 §4), so class 3, GSM 7-bit.',
  'aosp-udh-wap-1':
    'An 8-bit WAP push with ports and concatenation UDH; python-gsmmodem fails on 8-bit data.',
  'aosp-multipart-1': 'A 6-octet UDH takes 7 septets (1 fill bit); python-gsmmodem mis-aligns the text.',
  'aosp-cphs-mwi-set':
    'TOA 0xD0 is alphanumeric: the address is GSM 7-bit packed (TS 23.040 §9.1.2.5), "_@", not the raw octet.',
  'aosp-cphs-mwi-clear': 'Same as aosp-cphs-mwi-set: "Δ@".',
  'aosp-cingular-mwi-set':
    'The address length counts semi-octets (TS 23.040 §9.1.2.5): one digit "5"; the F filler is not a digit.',
  'aosp-cingular-mwi-clear': 'Same as aosp-cingular-mwi-set.',
};

/**
 * Fields where the fixture records one decoder's output rather than the 3GPP reading. The ZTE
 * report's recipient holds nibble 0xB, which TS 23.040 §9.1.2.3 defines as "#"; the fixture
 * copies python-gsmmodem's hex rendering ("B").
 */
const EXPECTED_OVERRIDES: Record<string, { address: string }> = {
  'gsmmodem-decode-11-zte-broken-sr': { address: '+#08427829207025' },
};

function expectedType(vector: PduVector): DecodedPdu['type'] {
  if (vector.type === 'SMS-DELIVER') return 'deliver';
  if (vector.type === 'SMS-SUBMIT') return 'submit';
  return 'status-report';
}

function expectedAddressType(address: VectorAddress): Address['type'] {
  const known = ['international', 'national', 'alphanumeric'] as const;
  return known.find((type) => type === address.type_of_number) ?? 'unknown';
}

function expectAddress(actual: Address | undefined, expected: VectorAddress, numberOverride?: string): void {
  expect(actual).toEqual({
    number: numberOverride ?? expected.number,
    type: expectedAddressType(expected),
    typeOfAddress: Number.parseInt(expected.toa, 16),
  });
}

function expectTimestamp(actual: Timestamp, iso: string): void {
  expect(actual.epochMs).toBe(Date.parse(iso));
  const zone = /([+-])(\d\d):(\d\d)$/.exec(iso);
  const sign = zone?.[1] === '-' ? -1 : 1;
  expect(actual.timezoneOffsetMinutes).toBe(sign * (Number(zone?.[2]) * 60 + Number(zone?.[3])));
}

function expectUserData(actual: UserData, vector: PduVector): void {
  expect(actual.encoding).toBe(vector.encoding);
  if (vector.text !== undefined) expect(actual.text).toBe(vector.text);
  if (vector.text_prefix !== undefined) expect(actual.text?.startsWith(vector.text_prefix)).toBe(true);
  // gammu-at-sms-14 records its raw octets although its DCS says GSM 7-bit; as a GSM 7-bit
  // message its bytes are septets, so only 8-bit and UCS-2 payloads compare as octets.
  if (vector.data_hex !== undefined && vector.encoding !== 'gsm7') {
    expect(hexOf(actual.bytes)).toBe(vector.data_hex.toUpperCase());
  }
  const udh = vector.udh;
  expect(actual.headerElements.map((element) => ({ iei: element.iei, data: hexOf(element.data) }))).toEqual(
    (udh?.elements ?? []).map((element) => ({ iei: Number.parseInt(element.iei, 16), data: element.data })),
  );
  expect(actual.concatenation).toEqual(
    udh?.concat && {
      reference: udh.concat.reference,
      partsCount: udh.concat.total,
      partNumber: udh.concat.sequence,
      referenceBits: udh.concat.reference_bits,
    },
  );
  expect(actual.ports).toEqual(
    udh?.ports && { destination: udh.ports.destination, source: udh.ports.source },
  );
}

function expectDecoded(decoded: DecodedPdu, vector: PduVector): void {
  const override = EXPECTED_OVERRIDES[vector.id];
  expect(decoded.type).toBe(expectedType(vector));
  if (vector.smsc === null) expect(decoded.smsc).toBeUndefined();
  else expectAddress(decoded.smsc, vector.smsc);

  if (decoded.type === 'deliver') {
    if (vector.originator === undefined || vector.scts === undefined)
      throw new Error('fixture lacks originator');
    expectAddress(decoded.sender, vector.originator, override?.address);
    expectTimestamp(decoded.timestamp, vector.scts);
    expect(decoded.moreMessagesToSend).toBe(vector.flags.more_messages_to_send);
    expect(decoded.statusReportIndication).toBe(vector.flags.status_report_indication);
    expect(decoded.replyPath).toBe(vector.flags.reply_path);
    expect(decoded.messageClass).toBe(vector.message_class ?? undefined);
    expect(decoded.protocolId).toBe(Number(vector.pid));
    expect(decoded.dataCodingScheme).toBe(Number(vector.dcs));
    expectUserData(decoded, vector);
  } else if (decoded.type === 'submit') {
    if (vector.destination === undefined) throw new Error('fixture lacks destination');
    expectAddress(decoded.recipient, vector.destination, override?.address);
    expect(decoded.messageReference).toBe(vector.message_reference);
    expect(decoded.rejectDuplicates).toBe(vector.flags.reject_duplicates);
    expect(decoded.statusReportRequested).toBe(vector.flags.status_report_request);
    const validity = vector.validity_period;
    if (validity === undefined) expect(decoded.validity).toBeUndefined();
    else if (validity.format === 'relative') {
      expect(decoded.validity).toEqual({
        kind: 'relative',
        seconds: relativeValiditySeconds(validity.tp_vp),
      });
    } else {
      expect(decoded.validity).toMatchObject({ kind: 'absolute', at: Date.parse(validity.time) });
    }
    expect(decoded.protocolId).toBe(Number(vector.pid));
    expect(decoded.dataCodingScheme).toBe(Number(vector.dcs));
    expectUserData(decoded, vector);
  } else {
    if (vector.recipient === undefined || vector.scts === undefined || vector.discharge_time === undefined) {
      throw new Error('fixture lacks status report fields');
    }
    expectAddress(decoded.recipient, vector.recipient, override?.address);
    expect(decoded.messageReference).toBe(vector.message_reference);
    expectTimestamp(decoded.serviceCentreTimestamp, vector.scts);
    expectTimestamp(decoded.dischargeTime, vector.discharge_time);
    expect(decoded.status).toBe(Number(vector.status));
    if (vector.encoding === undefined) expect(decoded.userData).toBeUndefined();
    else if (decoded.userData === undefined) throw new Error('status report user data missing');
    else expectUserData(decoded.userData, vector);
  }
}

describe('decoding the fixture vectors from real modems and public test suites', () => {
  it('holds all 117 vectors', () => {
    expect(vectors).toHaveLength(117);
  });

  it.each(vectors.map((vector) => [vector.id, vector] as const))('decodes %s as recorded', (_id, vector) => {
    expectDecoded(decodePdu(vector.pdu), vector);
  });

  it.each(vectors.map((vector) => [vector.id, vector] as const))(
    'decodes %s without its SMSC field when told hasSmsc false',
    (_id, vector) => {
      const smscOctets = Number.parseInt(vector.pdu.slice(0, 2), 16) + 1;
      const decoded = decodePdu(vector.pdu.slice(smscOctets * 2), { hasSmsc: false });
      expect(decoded.smsc).toBeUndefined();
      expect(decoded.type).toBe(expectedType(vector));
    },
  );

  it('has a ruling for every vector on which independent decoders disagree', () => {
    const disputed = vectors
      .filter((vector) => Object.values(vector.cross_check).some((verdict) => verdict !== 'agrees'))
      .map((vector) => vector.id);
    expect(Object.keys(RULINGS).sort()).toEqual([...disputed].sort());
  });

  it('reads the issue #15 time zone octets 0xC2 and 0x82 as +08:00 and +07:00', () => {
    const vector = vectors.find((candidate) => candidate.id === 'gsmmodem-sr-2-issue15');
    const decoded = decodePdu(vector?.pdu ?? '');
    if (decoded.type !== 'status-report') throw new Error('expected a status report');
    expect(decoded.serviceCentreTimestamp.timezoneOffsetMinutes).toBe(480);
    expect(decoded.dischargeTime.timezoneOffsetMinutes).toBe(420);
  });
});
