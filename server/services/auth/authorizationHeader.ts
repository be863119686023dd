/**
 * Parses an `Authorization` header (RFC 9110 §11.6.2) into Basic credentials (RFC 7617) or a
 * Bearer token (RFC 6750 §2.1). Scheme names are case-insensitive. Returns a reason instead of
 * throwing so the caller decides what a malformed header costs.
 */
export type ParsedAuthorization =
  | { scheme: 'basic'; username: string; password: string }
  | { scheme: 'bearer'; token: string }
  | { scheme: 'invalid'; reason: string };

// RFC 4648 §4 alphabet; padding optional because some clients strip it.
const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;
// RFC 6750 §2.1 b64token.
const b64tokenPattern = /^[A-Za-z0-9\-._~+/]+=*$/;

export function parseAuthorization(header: string): ParsedAuthorization {
  const trimmed = header.trim();
  const space = trimmed.indexOf(' ');
  if (space < 0) return { scheme: 'invalid', reason: 'no credentials after the scheme' };
  const scheme = trimmed.slice(0, space).toLowerCase();
  const value = trimmed.slice(space + 1).trim();
  if (scheme === 'basic') return parseBasic(value);
  if (scheme === 'bearer') {
    return b64tokenPattern.test(value)
      ? { scheme: 'bearer', token: value }
      : { scheme: 'invalid', reason: 'bearer token has characters RFC 6750 does not allow' };
  }
  return { scheme: 'invalid', reason: `unsupported scheme "${scheme}"` };
}

function parseBasic(value: string): ParsedAuthorization {
  if (!base64Pattern.test(value) || value.replace(/=+$/, '').length % 4 === 1) {
    return { scheme: 'invalid', reason: 'basic credentials are not base64' };
  }
  let decoded: string;
  try {
    // RFC 7617 §2.1: UTF-8 is the charset; reject bytes that are not UTF-8 rather than guess.
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64'));
  } catch {
    return { scheme: 'invalid', reason: 'basic credentials are not UTF-8' };
  }
  // RFC 7617 §2: the user-id ends at the first colon; the password may contain colons.
  const colon = decoded.indexOf(':');
  if (colon < 0) return { scheme: 'invalid', reason: 'basic credentials have no ":"' };
  return { scheme: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
