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
  return `${dateTime(epochMs + offsetMinutes * 60_000)}${sign}${twoDigits(Math.floor(absolute / 60))}:${twoDigits(absolute % 60)}`;
}

const dayMs = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on `toISOString` writes six-digit years. */
const yearTenThousandMs = 253_402_300_800_000;

/** "00" to "99" and "000" to "999": the clock's fields are looked up, not padded. */
const twoDigitForms = Array.from({ length: 100 }, (_, value) => String(value).padStart(2, '0'));
const threeDigitForms = Array.from({ length: 1_000 }, (_, value) => String(value).padStart(3, '0'));

/**
 * "YYYY-MM-DDT" of recently written days. A page of 50 messages writes about 150 timestamps
 * that fall on a few days, and `toISOString` would be the larger part of each one's cost. The key is the day of the already shifted instant, so the zone plays no part.
 */
const datePrefixes = new Map<number, string>();
const datePrefixesKept = 4_096;

/**
 * `new Date(ms).toISOString().slice(0, 23)`, with the date part remembered per day and the time
 * of day looked up. Years outside 1970–9999 keep the built-in form.
 */
function dateTime(ms: number): string {
  if (!(ms >= 0 && ms < yearTenThousandMs)) return new Date(ms).toISOString().slice(0, 23);
  const day = Math.floor(ms / dayMs);
  const msOfDay = ms - day * dayMs;
  const secondOfDay = Math.floor(msOfDay / 1_000);
  return `${datePrefix(day)}${twoDigitForms[Math.floor(secondOfDay / 3_600)]}:${twoDigitForms[Math.floor(secondOfDay / 60) % 60]}:${twoDigitForms[secondOfDay % 60]}.${threeDigitForms[msOfDay % 1_000]}`;
}

function datePrefix(day: number): string {
  let prefix = datePrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * dayMs).toISOString().slice(0, 11);
    // Emptied rather than evicted one by one: a page's days are few, and a refill is cheap.
    if (datePrefixes.size >= datePrefixesKept) datePrefixes.clear();
    datePrefixes.set(day, prefix);
  }
  return prefix;
}

/** An offset's hours or minutes; a fraction of a minute (a zone's offset before 1900) as before. */
function twoDigits(value: number): string {
  return twoDigitForms[value] ?? (value < 10 ? `0${value}` : String(value));
}
