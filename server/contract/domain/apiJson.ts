/**
 * JSON conventions of the upstream API (docs/decisions.md#errors-and-json): null and undefined
 * fields are omitted. Timestamps are formatted by the views with `toIsoWithOffset`
 * (server/clock/isoTime.ts).
 */

/**
 * `value` as the API answers it: without null fields, recursively (array items are kept).
 * JSON.stringify already leaves out undefined fields, so only a value that holds a null field is
 * copied; the pages answered most (50 messages, about 700 fields) hold none, and are sent
 * without being copied.
 */
export function omitNulls(value: unknown): unknown {
  return holdsNullField(value) ? withoutNullFields(value) : value;
}

/** Whether a plain object in `value` (at any depth, also inside arrays) has a null field. */
function holdsNullField(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsNullField(item)) return true;
    return false;
  }
  if (!isPlainObject(value)) return false;
  const fields = value as Record<string, unknown>;
  for (const key in fields) {
    // for…in also walks inherited enumerable keys; only the object's own are its fields.
    if (!Object.hasOwn(fields, key)) continue;
    const inner = fields[key];
    if (inner === null || holdsNullField(inner)) return true;
  }
  return false;
}

/**
 * A copy of `value` without null/undefined object fields. It loops without the pair arrays
 * `Object.entries` allocates, which are most of its cost.
 */
function withoutNullFields(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) items[index] = withoutNullFields(value[index]);
    return items;
  }
  if (!isPlainObject(value)) return value;
  const fields = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const inner = fields[key];
    if (inner === null || inner === undefined) continue;
    result[key] = withoutNullFields(inner);
  }
  return result;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
