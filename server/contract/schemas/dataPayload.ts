import { base64 } from './primitives.js';

/** Data bytes: 39 parts of 128 octets (140 minus the port and concatenation headers, rounded down). */
export const MaxDataBytes = 39 * 128;

/**
 * Why a data message's `data` is not a sendable payload (Base64, 1..MaxDataBytes bytes), or
 * undefined. Checked on the request for plain messages and after decryption for encrypted ones.
 */
export function dataPayloadProblem(data: string): string | undefined {
  if (!base64.safeParse(data).success) return 'must be valid Base64';
  const bytes = decodedLength(data);
  if (bytes === 0) return 'must not be empty';
  if (bytes > MaxDataBytes) return `must decode to at most ${MaxDataBytes} bytes`;
  return undefined;
}

/** The bytes valid Base64 holds. */
export function decodedLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}
