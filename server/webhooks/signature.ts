import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Upstream signing scheme: `X-Signature` = lowercase hex HMAC-SHA256 with the
 * `webhooks.signing_key`, over the exact body string followed by the `X-Timestamp` value
 * (Unix seconds).
 */
export function signWebhookBody(body: string, timestamp: string, signingKey: string): string {
  return createHmac('sha256', signingKey)
    .update(body + timestamp)
    .digest('hex');
}

/** What a receiver does; used by our tests and documented for users. */
export function verifyWebhookSignature(
  body: string,
  timestamp: string,
  signature: string,
  signingKey: string,
): boolean {
  const expected = Buffer.from(signWebhookBody(body, timestamp, signingKey), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
