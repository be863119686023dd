import { describe, expect, it } from 'vitest';
import { decodePdu, encodeSubmit } from '../../server/contract/pdu/index.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';
import { hexOf, loadPduVectors } from './vectorFixture.js';

/** Deterministic PRNG (mulberry32) so a failure reproduces from its seed. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const DECODE_ERRORS: readonly number[] = [ErrorCode.PduMalformed, ErrorCode.PduUnsupported];

/** Decodes `hex` and returns what escaped that is not a PDU GatewayError, or undefined. */
function escapedError(hex: string, hasSmsc: boolean): unknown {
  try {
    decodePdu(hex, { hasSmsc });
    return undefined;
  } catch (error) {
    return error instanceof GatewayError && DECODE_ERRORS.includes(error.code) ? undefined : error;
  }
}

function collectEscapes(inputs: Iterable<string>): { hex: string; error: unknown }[] {
  const escapes: { hex: string; error: unknown }[] = [];
  for (const hex of inputs) {
    for (const hasSmsc of [true, false]) {
      const error = escapedError(hex, hasSmsc);
      if (error !== undefined) escapes.push({ hex, error });
    }
  }
  return escapes;
}

const vectorPdus = loadPduVectors().map((vector) => vector.pdu);

describe('decodePdu under fuzzing: only PduMalformed or PduUnsupported GatewayErrors escape', () => {
  it('survives 5000 random PDUs of 0..180 octets', () => {
    const random = randomSource(0x5eed);
    function* inputs(): Generator<string> {
      for (let count = 0; count < 5000; count++) {
        const bytes = Uint8Array.from({ length: Math.floor(random() * 181) }, () =>
          Math.floor(random() * 256),
        );
        yield hexOf(bytes);
      }
    }
    expect(collectEscapes(inputs())).toEqual([]);
  });

  it('survives every fixture vector truncated at every octet', () => {
    function* inputs(): Generator<string> {
      for (const pdu of vectorPdus) {
        for (let octets = 0; octets < pdu.length / 2; octets++) yield pdu.slice(0, octets * 2);
      }
    }
    expect(collectEscapes(inputs())).toEqual([]);
  });

  it('survives 5000 fixture vectors with random octets overwritten', () => {
    const random = randomSource(0xbadc0de);
    function* inputs(): Generator<string> {
      for (let count = 0; count < 5000; count++) {
        const pdu = vectorPdus[Math.floor(random() * vectorPdus.length)] ?? '';
        const bytes = Uint8Array.from(pdu.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
        const mutations = 1 + Math.floor(random() * 4);
        for (let mutation = 0; mutation < mutations; mutation++) {
          bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
        }
        yield hexOf(bytes);
      }
    }
    expect(collectEscapes(inputs())).toEqual([]);
  });

  it('survives 5000 random user data blocks behind a valid header', () => {
    const random = randomSource(0x0d47a);
    const byte = () => Math.floor(random() * 256);
    // A DELIVER from +1555 (SCTS 2026-01-01) and a status report up to TP-ST: only the tails vary.
    const deliverHead = (firstOctet: number, dcs: number) => [
      0x00,
      firstOctet,
      0x04,
      0x91,
      0x51,
      0x55,
      0x00,
      dcs,
      0x62,
      0x10,
      0x10,
      0x00,
      0x00,
      0x00,
      0x00,
    ];
    const reportHead = (firstOctet: number) => [
      0x00,
      firstOctet,
      0x01,
      0x04,
      0x91,
      0x51,
      0x55,
      ...[0x62, 0x10, 0x10, 0, 0, 0, 0],
      ...[0x62, 0x10, 0x10, 0, 0, 0, 0],
      0x00,
    ];
    function* inputs(): Generator<string> {
      for (let count = 0; count < 5000; count++) {
        const firstOctet =
          (byte() & 0xfc) | (count % 2 === 0 ? 0x40 : byte() & 0x40) | (count % 3 === 0 ? 0x02 : 0x00);
        const head = (firstOctet & 0x03) === 0x02 ? reportHead(firstOctet) : deliverHead(firstOctet, byte());
        // Half the tails start with a plausible UDL and UDHL so the element parser is reached.
        const tail = Array.from({ length: Math.floor(random() * 160) }, byte);
        if (count % 2 === 0 && tail.length > 2) {
          tail[0] = tail.length - 1;
          tail[1] = Math.floor(random() * (tail.length - 1));
        }
        yield hexOf(Uint8Array.from([...head, ...tail]));
      }
    }
    expect(collectEscapes(inputs())).toEqual([]);
  });

  it('survives our own multipart output truncated and with its UDH length corrupted', () => {
    const parts = encodeSubmit({
      recipient: '+15551234567',
      content: { kind: 'text', text: `${'€'.repeat(100)}😀`.repeat(3) },
      requestStatusReport: true,
      concatReference: 1,
    });
    function* inputs(): Generator<string> {
      for (const { hex } of parts) {
        for (let octets = 0; octets < hex.length / 2; octets++) yield hex.slice(0, octets * 2);
        // The UDHL octet follows SMSC(1) FO(1) MR(1) DA(8) PID(1) DCS(1) UDL(1).
        for (let udhl = 0; udhl < 256; udhl += 5) {
          yield `${hex.slice(0, 28)}${udhl.toString(16).padStart(2, '0').toUpperCase()}${hex.slice(30)}`;
        }
      }
    }
    expect(collectEscapes(inputs())).toEqual([]);
  });

  it('reports a truncated PDU as PduMalformed, not as success or another error', () => {
    const pdu = vectorPdus[0] ?? '';
    expect(() => decodePdu(pdu.slice(0, 20))).toThrow(
      expect.objectContaining({ code: ErrorCode.PduMalformed }),
    );
  });
});
