import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Upstream signing scheme, the same on both sides: our webhook posts, and the posts an Android
 * phone's app makes to us (modules/webhooks/plugins/PayloadSingingPlugin.kt, installed by
 * workers/SendWebhookWorker.kt with the `webhooks.signing_key` setting, WebhooksSettings.kt).
 * `X-Timestamp` is Unix seconds, `X-Signature` the lowercase hex HMAC-SHA256, keyed with the
 * signing key's UTF-8 bytes, of the exact body text followed by that timestamp.
 */
export function signWebhookBody(body: string, timestamp: string, signingKey: string): string {
  return createHmac('sha256', signingKey)
    .update(body + timestamp)
    .digest('hex');
}

/** What a receiver does, whatever the age of the post. */
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

/** How far the sender's clock and ours may disagree, as the ecosystem's clients allow: 5 minutes. */
export const signatureToleranceSeconds = 300;

export type SignatureProblem = 'unsigned' | 'stale' | 'mismatch';

/** undefined when the post is signed with `signingKey` and fresh; otherwise what is wrong with it. */
export function signatureProblem(post: {
  signingKey: string;
  body: string;
  signature: string | undefined;
  timestamp: string | undefined;
  nowMs: number;
}): SignatureProblem | undefined {
  const { signature, timestamp } = post;
  if (!signature || !timestamp) return 'unsigned';
  if (!/^\d{1,12}$/.test(timestamp)) return 'stale';
  if (Math.abs(post.nowMs / 1_000 - Number(timestamp)) > signatureToleranceSeconds) return 'stale';
  return verifyWebhookSignature(post.body, timestamp, signature, post.signingKey) ? undefined : 'mismatch';
}
