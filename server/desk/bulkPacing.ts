import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Rows a bulk request (a contact import, a campaign) handles between two turns of the event
 * loop. A row costs tens of microseconds (a number read by libphonenumber, an index lookup, a
 * row written), so one chunk is a short pause for what waits behind it: health checks, other
 * requests, the modems' serial traffic.
 */
export const rowsPerTurn = 500;

/** The items in chunks of `rowsPerTurn`, with a turn of the event loop before each chunk but the first. */
export async function* chunksInTurns<T>(items: readonly T[]): AsyncGenerator<T[]> {
  for (let start = 0; start < items.length; start += rowsPerTurn) {
    if (start > 0) await nextTurn();
    yield items.slice(start, start + rowsPerTurn);
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
