import { ErrorCode, GatewayError } from '../errors/gatewayError.js';

/**
 * Where a webhook may point (spec: Events, registration rule 3; DESIGN §2): HTTPS anywhere, or
 * plain HTTP to this machine's loopback only, where nothing crosses a network in clear text.
 * DESIGN §2 accepts `localhost` and `[::1]` beside the spec's `127.0.0.1`.
 */
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Long enough for any real endpoint; keeps the stored document and log lines bounded. */
export const maxWebhookUrlLength = 2_048;

/** Returns the URL as given when it is acceptable; throws ValidationFailed naming `url`. */
export function checkWebhookUrl(value: string): string {
  const url = value.trim();
  const fail = (why: string): never => {
    throw new GatewayError(ErrorCode.ValidationFailed, `url: ${why}`, { field: 'url' });
  };
  if (url.length > maxWebhookUrlLength) fail(`longer than ${maxWebhookUrlLength} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('not an absolute URL');
  }
  // Node's fetch refuses URLs with embedded credentials, so such a webhook could never be
  // delivered; say so now instead of failing every delivery later.
  if (parsed.username !== '' || parsed.password !== '') fail('must not contain user name or password');
  if (parsed.protocol === 'https:') {
    if (parsed.hostname === '') fail('has no host');
    return url;
  }
  if (parsed.protocol === 'http:' && loopbackHosts.has(parsed.hostname)) return url;
  return fail('must use https://, or http:// to 127.0.0.1, localhost or [::1]');
}
