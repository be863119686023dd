/**
 * Service-centre time stamps and absolute validity periods (TS 23.040 §9.2.3.11): seven
 * swapped semi-octet fields YY MM DD hh mm ss TZ, the time zone in quarter hours with bit 3 of
 * the octet as the sign.
 */
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Timestamp } from './types.js';

export const TIMESTAMP_OCTETS = 7;
const MINUTE_MS = 60_000;
const QUARTER_HOUR_MINUTES = 15;
/** Two semi-octets hold at most 79 quarter hours once the sign bit is taken. */
const MAX_QUARTER_HOURS = 79;

/** Swapped semi-octets: low nibble is the tens digit. */
function semiOctetValue(octet: number): number {
  return (octet & 0x0f) * 10 + (octet >> 4);
}

function toSemiOctet(value: number): number {
  return ((value % 10) << 4) | Math.floor(value / 10);
}

/**
 * Two-digit years pivot like POSIX strptime %y: 69..99 are 19xx, 00..68 are 20xx (gammu at-sms
 * capture with year 99 is 1999).
 */
function fullYear(twoDigits: number): number {
  return twoDigits >= 69 ? 1900 + twoDigits : 2000 + twoDigits;
}

/**
 * The time-zone octet is read arithmetically, not digit-checked: some networks send non-BCD
 * units (python-gsmmodem issue #15: 0xC2 and 0x82 mean +08:00 and +07:00), which this reading
 * reproduces.
 */
function timezoneMinutes(octet: number): number {
  const quarters = (octet & 0x07) * 10 + (octet >> 4);
  const minutes = quarters * QUARTER_HOUR_MINUTES;
  return (octet & 0x08) !== 0 ? -minutes : minutes;
}

export function decodeTimestamp(octets: Uint8Array, field: string): Timestamp {
  const [yy, mo, dd, hh, mi, ss, tz] = Array.from(octets, (octet, index) =>
    index === TIMESTAMP_OCTETS - 1 ? octet : semiOctetValue(octet),
  );
  if (
    yy === undefined ||
    mo === undefined ||
    dd === undefined ||
    hh === undefined ||
    mi === undefined ||
    ss === undefined ||
    tz === undefined
  ) {
    throw new GatewayError(ErrorCode.PduMalformed, `${field} is shorter than 7 octets`, { field });
  }
  const year = fullYear(yy);
  const localMs = Date.UTC(year, mo - 1, dd, hh, mi, ss);
  const check = new Date(localMs);
  // A calendar roll-over (month 13, 31 February, hour 24, a non-BCD digit) means a corrupt field.
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== mo - 1 ||
    check.getUTCDate() !== dd ||
    check.getUTCHours() !== hh ||
    check.getUTCMinutes() !== mi ||
    check.getUTCSeconds() !== ss
  ) {
    throw new GatewayError(ErrorCode.PduMalformed, `${field} is not a valid date`, { field });
  }
  const timezoneOffsetMinutes = timezoneMinutes(tz);
  return { epochMs: localMs - timezoneOffsetMinutes * MINUTE_MS, timezoneOffsetMinutes };
}

export function encodeTimestamp(timestamp: Timestamp, field: string): number[] {
  const { epochMs, timezoneOffsetMinutes } = timestamp;
  const quarters = Math.abs(timezoneOffsetMinutes) / QUARTER_HOUR_MINUTES;
  if (!Number.isInteger(quarters) || quarters > MAX_QUARTER_HOURS) {
    throw new GatewayError(
      ErrorCode.PduUnsupported,
      `${field} time zone must be a whole number of quarter hours within ±19:45`,
      { field },
    );
  }
  if (!Number.isFinite(epochMs)) {
    throw new GatewayError(ErrorCode.PduMalformed, `${field} is not a finite time`, { field });
  }
  const local = new Date(Math.floor(epochMs / 1000) * 1000 + timezoneOffsetMinutes * MINUTE_MS);
  const year = local.getUTCFullYear();
  if (year < 1969 || year > 2068) {
    throw new GatewayError(ErrorCode.PduUnsupported, `${field} year ${year} has no two-digit form`, {
      field,
    });
  }
  const zone = toSemiOctet(quarters) | (timezoneOffsetMinutes < 0 ? 0x08 : 0);
  return [
    toSemiOctet(year % 100),
    toSemiOctet(local.getUTCMonth() + 1),
    toSemiOctet(local.getUTCDate()),
    toSemiOctet(local.getUTCHours()),
    toSemiOctet(local.getUTCMinutes()),
    toSemiOctet(local.getUTCSeconds()),
    zone,
  ];
}
