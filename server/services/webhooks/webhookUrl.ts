import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/**
 * Where a webhook may point (spec: Events, registration rule 3; docs/decisions.md#webhooks): HTTPS
 * anywhere, or plain HTTP to this machine's loopback only, where nothing crosses a network in clear
 * text. We accept `localhost` and `[::1]` beside the spec's `127.0.0.1`.
 */
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Long enough for any real endpoint; keeps the stored document and log lines bounded. */
export const maxWebhookUrlLength = 2_048;

/**
 * Hosts of the local network: RFC 1918 and link-local IPv4, IPv6 unique-local (fc00::/7) and
 * link-local (fe80::/10), and mDNS `.local` names. Plain HTTP to them is allowed only with the
 * `webhooks.allow_lan_http` setting: Home Assistant's default internal URL is
 * `http://<LAN address>:8123`, while its payloads (message text, numbers) then cross the LAN
 * unencrypted, which the user has to accept knowingly.
 */
function isLanHost(hostname: string): boolean {
  if (hostname.endsWith('.local')) return true;
  const ipv4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(hostname);
  if (ipv4) {
    const first = Number(ipv4[1]);
    const second = Number(ipv4[2]);
    return (
      first === 10 ||
      (first === 172 && second >= 16 && second <= 31) ||
      (first === 192 && second === 168) ||
      (first === 169 && second === 254)
    );
  }
  return /^\[(f[cd][0-9a-f]{0,2}|fe[89ab][0-9a-f]?):/i.test(hostname);
}

export interface WebhookUrlPolicy {
  /** `webhooks.allow_lan_http`: plain http:// to a local-network host (see isLanHost). */
  allowLanHttp: boolean;
}

/** Returns the URL as given when it is acceptable; throws ValidationFailed naming `url`. */
export function checkWebhookUrl(value: string, policy: WebhookUrlPolicy = { allowLanHttp: false }): string {
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
  if (parsed.protocol === 'http:' && policy.allowLanHttp && isLanHost(parsed.hostname)) return url;
  return fail(
    policy.allowLanHttp
      ? 'must use https://, or http:// to loopback or a local-network address'
      : 'must use https://, or http:// to 127.0.0.1, localhost or [::1] (webhooks.allow_lan_http allows the local network)',
  );
}
