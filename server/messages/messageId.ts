import { randomBytes, randomFillSync } from 'node:crypto';

/**
 * Generated message ids look like upstream's: 21 characters of the URL-safe alphabet
 * (nanoid's shape, 126 random bits), so clients that store or display ids see a familiar form.
 */
const alphabet = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
const idLength = 21;
const idsPerDraw = 128;

export function generateMessageId(): string {
  return idFrom(randomBytes(idLength), 0);
}

/**
 * Ids for a hot path: random bytes are drawn for many ids at once, as nanoid does (a
 * `randomBytes` call per id cost 3 % of a POST /messages; BENCHMARKS.md, "POST path"). Every
 * byte is used once.
 */
export function createMessageIdGenerator(): () => string {
  const pool = Buffer.alloc(idLength * idsPerDraw);
  let offset = pool.length;
  return () => {
    if (offset === pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const id = idFrom(pool, offset);
    offset += idLength;
    return id;
  };
}

function idFrom(bytes: Buffer, offset: number): string {
  let id = '';
  // 64 symbols: the low six bits of each byte index the alphabet without bias.
  for (let index = offset; index < offset + idLength; index++) id += alphabet[(bytes[index] ?? 0) & 63];
  return id;
}
