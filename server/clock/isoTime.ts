/**
 * ISO 8601 with milliseconds and the local UTC offset ("2026-11-22T05:03:01.123+01:00"), the
 * form the upstream project uses in API records and webhook payloads.
 */
export function toIsoWithOffset(
  epochMs: number,
  offsetMinutes: number = -new Date(epochMs).getTimezoneOffset(),
): string {
  const shifted = new Date(epochMs + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, '0');
  const minutes = String(absolute % 60).padStart(2, '0');
  return `${shifted.toISOString().slice(0, 23)}${sign}${hours}:${minutes}`;
}
