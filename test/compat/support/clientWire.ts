import { expect } from 'vitest';
import { z } from 'zod';
import type { ApiResponse, GatewayUnderTest } from './gatewayUnderTest.js';

/**
 * What the client suites in `test/compat/clients/` share: the date texts and query strings each
 * client's standard library writes, the traffic every suite reads back, and the HTTP layers that
 * decide which answers a client accepts.
 */

/** An RFC 3339 date-time with Z or an offset: what time.Time, chrono and fromisoformat read. */
export const rfc3339 = z.iso.datetime({ offset: true });

function fraction(ms: number, digits: number): string {
  const text = String(ms % 1000).padStart(3, '0');
  return text === '000' ? '' : `.${text.padEnd(digits, '0')}`;
}

const seconds = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** A UTC instant written as each client's formatter writes it. */
export const dateText = {
  /** Go `t.Format(time.RFC3339)`: whole seconds, `Z`. */
  goRfc3339: (ms: number) => `${seconds(ms)}Z`,
  /** Go `json.Marshal(time.Time)` (RFC3339Nano): trailing zeros of the fraction dropped, `Z`. */
  goJson: (ms: number) => `${seconds(ms)}${fraction(ms, 3).replace(/0+$/, '')}Z`,
  /** Python `datetime.isoformat()` of an aware UTC datetime: microseconds when non-zero, `+00:00`. */
  pythonIsoformat: (ms: number) => `${seconds(ms)}${fraction(ms, 6)}+00:00`,
  /** PHP `date(DATE_ATOM)` in UTC, what a PHP caller passes for the client's date strings. */
  phpAtom: (ms: number) => `${seconds(ms)}+00:00`,
  /** Rust chrono `DateTime<Utc>::to_rfc3339()`: nanoseconds when non-zero, `+00:00`. */
  rustRfc3339: (ms: number) => `${seconds(ms)}${fraction(ms, 9)}+00:00`,
  /** Rust chrono's serde form of `DateTime<Utc>`: milliseconds when non-zero, `Z`. */
  rustSerde: (ms: number) => `${seconds(ms)}${fraction(ms, 3)}Z`,
};

/**
 * `?a=b&c=d` form-encoded (Go url.Values.Encode, Python urlencode, PHP http_build_query and Rust
 * form_urlencoded agree on the characters these queries hold: `:` → %3A, `+` → %2B), or '' when
 * empty, as every client leaves the `?` off then. Go's Encode sorts by key: pass `sorted`.
 */
export function queryString(
  params: Record<string, string | number | boolean | undefined>,
  options: { sorted?: boolean } = {},
): string {
  const entries = Object.entries(params).filter(
    (entry): entry is [string, string | number | boolean] => entry[1] !== undefined,
  );
  if (options.sorted) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(
    entries.map(([key, value]): [string, string] => [key, String(value)]),
  ).toString();
  return query === '' ? '' : `?${query}`;
}

export interface Traffic {
  deviceId: string;
  /** A message the simulated modem has sent and reported delivered (its final state). */
  sentId: string;
  /** An SMS in the inbox. */
  incomingId: string;
  /** Instants around all of it, for from/to and since/until. */
  since: number;
  until: number;
}

/**
 * One sent message and one received SMS, so the lists a client decodes hold real items (an
 * empty array would pass any item decoder). Sends through the API with Basic auth.
 */
export async function seedTraffic(gateway: GatewayUnderTest, prefix: string): Promise<Traffic> {
  const since = gateway.clock.now() - 60_000;
  const sentId = `${prefix}-seed`;
  const sent = await gateway.request('POST', '/messages', {
    json: { id: sentId, phoneNumbers: ['+15550100000'], textMessage: { text: 'seed' } },
  });
  expect(sent.status, sent.text).toBe(202);
  await gateway.runUntil(async () => {
    const state = (await gateway.request('GET', `/messages/${sentId}`)).body as { state: string };
    return state.state === 'Delivered';
  }, 'the seed message being delivered');
  const incoming = await gateway.receiveSms('+15550109999', `${prefix} inbound`);
  const devices = (await gateway.request('GET', '/devices')).body as { id: string }[];
  const deviceId = devices[0]?.id;
  if (!deviceId) throw new Error('the gateway lists no device');
  return { deviceId, sentId, incomingId: incoming.id, since, until: gateway.clock.now() + 60_000 };
}

/** A client's HTTP layer refused the answer, with the reason it would raise. */
export class ClientRefusal extends Error {}

/** Parses like a JSON decoder that must get a value: an empty or broken body is a refusal. */
export function jsonOf(response: ApiResponse, what: string): unknown {
  try {
    return JSON.parse(response.text);
  } catch {
    throw new ClientRefusal(
      `${what}: the ${response.status} body is not JSON: ${JSON.stringify(response.text)}`,
    );
  }
}

/** Throws with every mismatch, naming the client and the call, so a failure names the field. */
export function decodeAs<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new ClientRefusal(`${what} does not decode:\n${z.prettifyError(result.error)}`);
  return result.data;
}
