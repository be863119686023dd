import { z } from 'zod';
import { isKnownTimeZone } from '../../clock/zonedTime.js';

/**
 * Building blocks shared by the request schemas. Query strings arrive as text, so query
 * numbers and booleans are parsed strictly here rather than coerced (`?limit=` must not become 0).
 */

/** RFC 3339 date-time with `Z` or an offset (clients send `toISOString()`), as ms since epoch. */
export const dateTime = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with Z or an offset' })
  .transform((text) => Date.parse(text));

/** Query boolean: exactly 'true' or 'false'. */
export const queryBoolean = z
  .enum(['true', 'false'], { message: "must be 'true' or 'false'" })
  .transform((text) => text === 'true');

/** Query integer within bounds. */
export function queryInteger(min: number, max: number) {
  return z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}

/** Standard Base64 (RFC 4648 §4), padding required, as upstream's Go decoder expects. */
export const base64 = z
  .string()
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be valid Base64');

/** E.164: '+', a non-zero country digit, at most 15 digits in all (ITU-T E.164 §6). */
export const e164Pattern = /^\+[1-9]\d{1,14}$/;

/** Page bounds of list endpoints (spec "Limits": GET /inbox limit 1 to 500, default 50). */
export const MaxPageSize = 500;
export const DefaultPageSize = 50;

export const pageQuery = {
  limit: queryInteger(1, MaxPageSize).default(DefaultPageSize),
  offset: queryInteger(0, Number.MAX_SAFE_INTEGER).default(0),
};

/** Our extension to the list queries: a case-insensitive substring of the text or a number (the UI's search box). */
export const searchQuery = {
  search: z.string().max(200).optional(),
};

export const timeRangeQuery = {
  from: dateTime.optional(),
  to: dateTime.optional(),
};

/** "HH:MM" on a 24-hour clock. */
export const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM, 24-hour (00:00–23:59)');

/** An IANA time zone this runtime knows. */
export const timeZone = z
  .string()
  .max(64)
  .refine(isKnownTimeZone, 'must be an IANA time zone, e.g. "Europe/Berlin"');
