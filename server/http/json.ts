/**
 * JSON conventions of the upstream API (DESIGN §2): null and undefined fields are omitted.
 * Timestamps are formatted by the views with `toIsoWithOffset` (server/clock/isoTime.ts).
 */

/**
 * A copy of `value` without null/undefined object fields, recursively (array items are kept).
 * Every JSON answer goes through here (a page of 50 messages is about 700 fields), so it loops
 * without the pair arrays `Object.entries` allocates: that halved its cost (BENCHMARKS.md,
 * "GET path").
 */
export function omitNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) items[index] = omitNulls(value[index]);
    return items;
  }
  if (!isPlainObject(value)) return value;
  const fields = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const key in fields) {
    // for…in also walks inherited enumerable keys; only the object's own are its fields.
    if (!Object.hasOwn(fields, key)) continue;
    const inner = fields[key];
    if (inner === null || inner === undefined) continue;
    result[key] = omitNulls(inner);
  }
  return result;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
