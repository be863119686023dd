import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The app signs each webhook post (modules/webhooks/plugins/PayloadSingingPlugin.kt, installed by
 * workers/SendWebhookWorker.kt with the `webhooks.signing_key` setting, WebhooksSettings.kt):
 * `X-Timestamp` is Unix seconds, `X-Signature` the lowercase hex HMAC-SHA256, keyed with the
 * signing key's UTF-8 bytes, of the exact body text followed by that timestamp.
 */
export function phoneWebhookSignature(signingKey: string, body: string, timestamp: string): string {
  return createHmac('sha256', signingKey)
    .update(body + timestamp)
    .digest('hex');
}

/** How far the phone's clock and ours may disagree, as the ecosystem's clients allow: 5 minutes. */
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
  const expected = Buffer.from(phoneWebhookSignature(post.signingKey, post.body, timestamp), 'utf8');
  const given = Buffer.from(signature.toLowerCase(), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given) ? undefined : 'mismatch';
}
