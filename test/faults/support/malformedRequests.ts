import { basicAuthorization } from '../../../bench/support/gatewayProcess.js';
import type { Random } from './seededRandom.js';

/** One request the fuzzer sends: structurally HTTP, wrong in its content. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

const paths = [
  '/messages',
  '/message',
  '/messages/inbox/export',
  '/inbox',
  '/inbox/refresh',
  '/logs',
  '/devices',
  '/settings',
  '/webhooks',
  '/health',
  '/auth/token',
  '/auth/token/refresh',
  '/gateway/v1/events',
  // Security review (issue 12): bodiless state changes, device paths, the login, revocation ids.
  '/gateway/v1/webhooks/x/test',
  '/gateway/v1/modems',
  '/gateway/v1/credentials',
  `/auth/token/${'j'.repeat(5_000)}`,
];
const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const queryKeys = [
  'limit',
  'offset',
  'from',
  'to',
  'state',
  'deviceId',
  'skipPhoneValidation',
  'since',
  'type',
];
const nastyValues = [
  '-1',
  '0',
  '1e309',
  'NaN',
  '%',
  '%E0%A4%A',
  '%00',
  '..%2F..%2Fetc%2Fpasswd',
  '9'.repeat(400),
  'true',
  'yes',
  '2026-13-45T99:99:99Z',
  '\u{1F4A9}',
  '[]',
  '{}',
];

/** Any Unicode scalar values, controls and astral planes included (no lone surrogates). */
function randomText(random: Random, length: number): string {
  let text = '';
  for (let index = 0; index < length; index++) {
    const codePoint = random.int(0, 0x10ffff - 0x800);
    text += String.fromCodePoint(codePoint < 0xd800 ? codePoint : codePoint + 0x800);
  }
  return text;
}

function randomQuery(random: Random): string {
  const parts: string[] = [];
  for (let count = random.int(0, 4); count > 0; count--) {
    const key = random.next() < 0.8 ? random.pick(queryKeys) : encodeURIComponent(randomText(random, 5));
    parts.push(`${key}=${random.pick(nastyValues)}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

function randomPath(random: Random): string {
  const roll = random.next();
  if (roll < 0.6) return random.pick(paths);
  if (roll < 0.7) return `${random.pick(paths)}/${encodeURIComponent(randomText(random, random.int(1, 40)))}`;
  if (roll < 0.8) return `/${'a/'.repeat(random.int(1, 2_000))}`;
  if (roll < 0.9) return `/messages/${random.pick(['%00', '..', '%2e%2e%2f', '%ZZ', '\u00e9', '%ff%fe'])}`;
  return `/${random.pick(['ui', 'docs', 'openapi.json', 'x'])}/${random.pick(nastyValues)}`;
}

/** Bodies that are almost a message request, and bodies that are nothing like one. */
function randomBody(random: Random): Buffer {
  const valid = { textMessage: { text: 'hi' }, phoneNumbers: ['+447700900123'] };
  const roll = random.next();
  if (roll < 0.15) return Buffer.from(JSON.stringify(valid).slice(0, random.int(0, 60)));
  if (roll < 0.3) {
    const mutated: Record<string, unknown> = structuredClone(valid);
    const key = random.pick([
      'textMessage',
      'phoneNumbers',
      'ttl',
      'priority',
      'simNumber',
      'id',
      'dataMessage',
    ]);
    mutated[key] = random.pick<unknown>([
      null,
      -1,
      1e308,
      'x'.repeat(random.int(0, 5_000)),
      [],
      {},
      [[[]]],
      true,
    ]);
    return Buffer.from(JSON.stringify(mutated));
  }
  if (roll < 0.4) return Buffer.from(`${'['.repeat(random.int(1, 50_000))}${']'.repeat(random.int(0, 10))}`);
  if (roll < 0.5) return Buffer.from(Array.from({ length: random.int(0, 2_000) }, () => random.int(0, 255)));
  if (roll < 0.6)
    return Buffer.from(
      JSON.stringify({ phoneNumbers: [randomText(random, 30)], message: randomText(random, 200) }),
    );
  if (roll < 0.7) return Buffer.from(`{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}`);
  if (roll < 0.75)
    return Buffer.from(
      JSON.stringify({ textMessage: { text: 'hi' }, phoneNumbers: Array(random.int(0, 2_000)).fill('+1') }),
    );
  // Security review 10: one recipient of up to 200,000 digits (with skipPhoneValidation in the mix).
  if (roll < 0.8)
    return Buffer.from(
      JSON.stringify({ textMessage: { text: 'hi' }, phoneNumbers: ['1'.repeat(random.int(20, 200_000))] }),
    );
  // Past the body limit now and then (413), but rarely: each one is megabytes over loopback.
  if (roll < 0.9) return Buffer.alloc(random.next() < 0.05 ? random.int(1_100_000, 1_500_000) : 65_536, 0x61);
  return Buffer.from(randomText(random, random.int(0, 500)));
}

function randomAuthorization(random: Random): string | undefined {
  return random.pick<string | undefined>([
    basicAuthorization,
    basicAuthorization,
    undefined,
    'Basic',
    'Basic !!!not-base64!!!',
    `Basic ${Buffer.from('no-colon').toString('base64')}`,
    `Basic ${Buffer.from(`u:${'p'.repeat(10_000)}`).toString('base64')}`,
    'Bearer',
    'Bearer a.b.c',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1In0.',
    `Bearer ${randomText(random, 100)}`.replace(/[^\x20-\x7e]/g, 'x'),
    'Digest username="u"',
  ]);
}

function randomContentType(random: Random): string | undefined {
  return random.pick<string | undefined>([
    'application/json',
    'application/json',
    'application/json; charset=latin1',
    'application/json; charset=nonsense',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    undefined,
    'application/json; charset=utf-16',
    // Security review 5: JSON types the parser once left unread (the body became {}).
    'application/merge-patch+json',
    'application/json; foo=bar',
    'application/vnd.example+json',
  ]);
}

/** Security review 6: what a page on another site sends along. */
function randomOrigin(random: Random): string {
  return random.pick(['https://evil.example', 'null', 'http://127.0.0.1:1', 'http://localhost', '']);
}

export function malformedRequest(random: Random): FuzzRequest {
  const method = random.pick(methods);
  const headers: Record<string, string> = {};
  const authorization = randomAuthorization(random);
  if (authorization !== undefined) headers.authorization = authorization;
  const contentType = randomContentType(random);
  if (contentType !== undefined) headers['content-type'] = contentType;
  if (random.next() < 0.1) headers['content-encoding'] = random.pick(['gzip', 'deflate', 'br', 'bogus']);
  if (random.next() < 0.05) {
    headers.host = random.pick(['evil.example', '127.0.0.1:1', '', 'localhost', '0.0.0.0', '0.0.0.0:8080']);
  }
  if (random.next() < 0.1) headers.origin = randomOrigin(random);
  if (random.next() < 0.05) headers['sec-fetch-site'] = random.pick(['cross-site', 'same-site', 'none']);
  // An HTTP client cannot put raw non-ASCII in a request line; percent-encode just those characters.
  const path = `${randomPath(random)}${randomQuery(random)}`.replace(/[^\x21-\x7e]/gu, encodeURIComponent);
  const request: FuzzRequest = { method, path, headers };
  if (method !== 'GET' && method !== 'HEAD' && random.next() < 0.9) request.body = randomBody(random);
  return request;
}

/** Byte strings that are not valid HTTP/1.1 at all, written straight to a socket. */
export function malformedRawRequest(random: Random): Buffer {
  return Buffer.from(
    random.pick([
      'GARBAGE\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      'GET /messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n',
      'POST /messages HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      `GET /${'x'.repeat(100_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      'GET /health HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n',
      `GET /health HTTP/1.1\r\n${'X-A: b\r\n'.repeat(3_000)}\r\n`,
      '\x00\x01\x02\x03\r\n\r\n',
      'POST /messages HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n',
    ]),
  );
}
