import { randomBytes } from 'node:crypto';

/**
 * Generated message ids look like upstream's: 21 characters of the URL-safe alphabet
 * (nanoid's shape, 126 random bits), so clients that store or display ids see a familiar form.
 */
const alphabet = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

export function generateMessageId(): string {
  const bytes = randomBytes(21);
  let id = '';
  // 64 symbols: the low six bits of each byte index the alphabet without bias.
  for (const byte of bytes) id += alphabet[byte & 63];
  return id;
}
