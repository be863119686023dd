import { randomBytes, randomFillSync } from 'node:crypto';

/**
 * Generated ids look like upstream's: 21 characters of nanoid's URL-safe alphabet, so clients
 * that store or display ids see a familiar form. The alphabet is in ASCII order, so an id that
 * starts with the time sorts (as SQLite compares text, byte by byte) in the order ids were made.
 */
const alphabet = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
const idLength = 21;
/**
 * 7 symbols of 6 bits: 42 bits of milliseconds. An 8th would be "-" until the year 2109, so every
 * id would start with a dash (read as an option by command-line tools). In 2109 the prefix wraps:
 * ids stay unique (their random part) and only stop sorting by time.
 */
const timeLength = 7;
const randomLength = idLength - timeLength;
const idsPerDraw = 128;

/** An id of 126 random bits (a device's, a campaign's). */
export function generateMessageId(): string {
  return symbols(randomBytes(idLength), 0, idLength);
}

/**
 * Message ids, for a hot path. The first 7 characters are the time in ms, the other 14 random
 * (84 bits): ids made one after another land side by side in the store's unique index, where
 * random ones would each dirty an index page of their own (a whole page of write-ahead log per
 * message in a large store: most of what a POST writes, and of the wait for its fsync).
 * Random bytes are drawn for many ids at once, as nanoid does (a `randomBytes` call per id is a
 * share of every POST /messages). Every byte is used once.
 */
export function createMessageIdGenerator(now: () => number = Date.now): () => string {
  const pool = Buffer.alloc(randomLength * idsPerDraw);
  let offset = pool.length;
  return () => {
    if (offset === pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    const id = timePrefix(now()) + symbols(pool, offset, randomLength);
    offset += randomLength;
    return id;
  };
}

function timePrefix(ms: number): string {
  let rest = Math.max(0, Math.floor(ms)) % 64 ** timeLength;
  let prefix = '';
  for (let index = 0; index < timeLength; index++) {
    prefix = alphabet[rest % 64] + prefix;
    rest = Math.floor(rest / 64);
  }
  return prefix;
}

function symbols(bytes: Buffer, offset: number, length: number): string {
  let text = '';
  // 64 symbols: the low six bits of each byte index the alphabet without bias.
  for (let index = offset; index < offset + length; index++) text += alphabet[(bytes[index] ?? 0) & 63];
  return text;
}
