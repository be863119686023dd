/**
 * The entry of a stored record kept by a caller's key (an id from a URL), if the record has it
 * as its own: `record['__proto__']` would otherwise be Object.prototype, not "none".
 */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
