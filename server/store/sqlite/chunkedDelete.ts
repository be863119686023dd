import type { GroupCommit } from './groupCommit.js';
import type { Statement } from './sqlite.js';

/** Rows deleted per write: small enough that a send waiting behind it is not held up noticeably. */
const chunkRows = 500;

/**
 * Runs a `DELETE … LIMIT @chunk` statement until it deletes less than a chunk, one group commit
 * per chunk and a wait for it in between, so retention of a year of history interleaves with
 * sends instead of holding the event loop. Returns how many rows went.
 */
export async function chunkedDelete(
  commits: GroupCommit,
  statement: Statement,
  params: Record<string, number | string>,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { value, durable } = commits.write(() => statement.run({ ...params, chunk: chunkRows }).changes);
    await durable;
    deleted += value;
    if (value < chunkRows) return deleted;
  }
}
