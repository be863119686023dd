import { setImmediate } from 'node:timers/promises';

/** Lets whatever waits on the event loop run before the next chunk of work. */
export function nextTurn(): Promise<void> {
  return setImmediate();
}

/**
 * Rows a bulk request (a contact import, a campaign) handles between two turns of the event
 * loop. A row costs tens of microseconds (a number read by libphonenumber, an index lookup, a
 * row written), so one chunk is a short pause for what waits behind it: health checks, other
 * requests, the modems' serial traffic.
 */
export const rowsPerTurn = 500;

/**
 * Messages queued between two turns: a queued message costs far more than a row read (its row,
 * its search index entries, its conversation), so a turn of `rowsPerTurn` of them would hold
 * the loop for over a hundred milliseconds.
 */
export const messagesPerTurn = 100;

/**
 * The items in chunks of `size`, with a turn of the event loop before each chunk: the first one
 * too, as the request's body was parsed and checked in the turn that calls this.
 */
export async function* chunksInTurns<T>(items: readonly T[], size = rowsPerTurn): AsyncGenerator<T[]> {
  for (let start = 0; start < items.length; start += size) {
    await nextTurn();
    yield items.slice(start, start + size);
  }
}

/** Awaited once per row: every `rowsPerTurn`-th call gives the event loop a turn. */
export function rowPacer(): () => Promise<void> {
  let rows = 0;
  return async () => {
    rows++;
    if (rows % rowsPerTurn === 0) await nextTurn();
  };
}
