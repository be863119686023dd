/**
 * ISO 8601 with milliseconds and the local UTC offset ("2026-11-22T05:03:01.123+01:00"), the
 * form the upstream project uses in API records and webhook payloads.
 */
export function toIsoWithOffset(
  epochMs: number,
  offsetMinutes: number = -new Date(epochMs).getTimezoneOffset(),
): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  return `${utcDateTime(epochMs + offsetMinutes * 60_000)}${sign}${twoDigits(Math.floor(absolute / 60))}:${twoDigits(absolute % 60)}`;
}

const dayMs = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on `toISOString` writes six-digit years. */
const yearTenThousandMs = 253_402_300_800_000;

/**
 * `new Date(ms).toISOString().slice(0, 23)`, computed with integer arithmetic: V8's
 * `toISOString` took half of every timestamp's cost, and a page of 50 messages formats 200 of
 * them (BENCHMARKS.md, "GET path"). The calendar is Howard Hinnant's `civil_from_days`
 * (proleptic Gregorian, as ECMAScript's). Years outside 1970–9999 keep the built-in form.
 */
function utcDateTime(ms: number): string {
  if (!(ms >= 0 && ms < yearTenThousandMs)) return new Date(ms).toISOString().slice(0, 23);
  const days = Math.floor(ms / dayMs);
  const msOfDay = ms - days * dayMs;
  const shifted = days + 719_468; // days since 0000-03-01
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1_460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(msOfDay / 3_600_000);
  const minutes = Math.floor(msOfDay / 60_000) % 60;
  const seconds = Math.floor(msOfDay / 1_000) % 60;
  const millis = msOfDay % 1_000;
  return `${String(year).padStart(4, '0')}-${twoDigits(month)}-${twoDigits(day)}T${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}`;
}

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}
