/** TP-VP (TS 23.040 §9.2.3.12) in its relative, absolute and enhanced formats. */
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { OctetReader } from './octetReader.js';
import { decodeTimestamp, encodeTimestamp, TIMESTAMP_OCTETS } from './timestamp.js';
import type { Validity } from './types.js';

/** TP-VPF values, bits 4..3 of the first octet of SMS-SUBMIT. */
export const ValidityFormat = { None: 0, Enhanced: 1, Relative: 2, Absolute: 3 } as const;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MAX_RELATIVE_VP = 255;
const ENHANCED_OCTETS = 7;

/** TS 23.040 §9.2.3.12.1: the duration each relative TP-VP value stands for. */
export function relativeValiditySeconds(vp: number): number {
  if (vp <= 143) return (vp + 1) * 5 * MINUTE;
  if (vp <= 167) return 12 * HOUR + (vp - 143) * 30 * MINUTE;
  if (vp <= 196) return (vp - 166) * DAY;
  return (vp - 192) * WEEK;
}

/** The smallest TP-VP that lasts at least `seconds`; longer than 63 weeks gives 255 (63 weeks). */
export function relativeValidityOctet(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new GatewayError(
      ErrorCode.PduMalformed,
      'Relative validity must be a non-negative number of seconds',
      {
        field: 'validity',
      },
    );
  }
  for (let vp = 0; vp < MAX_RELATIVE_VP; vp++) {
    if (relativeValiditySeconds(vp) >= seconds) return vp;
  }
  return MAX_RELATIVE_VP;
}

export function validityFormatOf(validity: Validity | undefined): number {
  if (validity === undefined) return ValidityFormat.None;
  return validity.kind === 'relative' ? ValidityFormat.Relative : ValidityFormat.Absolute;
}

export function encodeValidity(validity: Validity | undefined): number[] {
  if (validity === undefined) return [];
  if (validity.kind === 'relative') return [relativeValidityOctet(validity.seconds)];
  return encodeTimestamp(
    { epochMs: validity.at, timezoneOffsetMinutes: validity.timezoneOffsetMinutes ?? 0 },
    'validity',
  );
}

function semiOctetValue(octet: number): number {
  return (octet & 0x0f) * 10 + (octet >> 4);
}

/**
 * TS 23.040 §9.2.3.12.3: the functionality indicator's low three bits pick the format. Formats
 * we cannot express as a Validity (none, reserved) decode as no validity; the seven octets are
 * consumed either way.
 */
function decodeEnhanced(octets: Uint8Array): Validity | undefined {
  const indicator = octets[0] ?? 0;
  const format = indicator & 0x07;
  if (format === 1) return { kind: 'relative', seconds: relativeValiditySeconds(octets[1] ?? 0) };
  if (format === 2) return { kind: 'relative', seconds: octets[1] ?? 0 };
  if (format === 3) {
    const seconds =
      semiOctetValue(octets[1] ?? 0) * HOUR +
      semiOctetValue(octets[2] ?? 0) * MINUTE +
      semiOctetValue(octets[3] ?? 0);
    return { kind: 'relative', seconds };
  }
  return undefined;
}

export function readValidity(reader: OctetReader, format: number): Validity | undefined {
  switch (format) {
    case ValidityFormat.Relative:
      return { kind: 'relative', seconds: relativeValiditySeconds(reader.readOctet('TP-VP')) };
    case ValidityFormat.Absolute: {
      const timestamp = decodeTimestamp(reader.readOctets(TIMESTAMP_OCTETS, 'TP-VP'), 'TP-VP');
      return {
        kind: 'absolute',
        at: timestamp.epochMs,
        timezoneOffsetMinutes: timestamp.timezoneOffsetMinutes,
      };
    }
    case ValidityFormat.Enhanced:
      return decodeEnhanced(reader.readOctets(ENHANCED_OCTETS, 'TP-VP'));
    default:
      return undefined;
  }
}
