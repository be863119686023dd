/**
 * JSON conventions of the upstream API (DESIGN §2): null and undefined fields are omitted.
 * Timestamps are formatted by the views with `toIsoWithOffset` (server/clock/isoTime.ts).
 */

/** A copy of `value` without null/undefined object fields, recursively (array items are kept). */
export function omitNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(omitNulls);
  if (value === null || typeof value !== 'object' || !isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner === null || inner === undefined) continue;
    result[key] = omitNulls(inner);
  }
  return result;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
