import { readFile } from 'node:fs/promises';

/**
 * Where the transactions of a SQLite WAL file end (https://sqlite.org/fileformat2.html#walformat):
 * a 32-byte header carrying the page size and two salts, then frames of a 24-byte header and one
 * page. A frame belongs to the current log when its salts equal the header's (frames after a
 * checkpoint restarted the log carry older salts), and it ends a transaction (a commit frame)
 * when its "database size after commit" field is not zero.
 */
export interface WalLayout {
  /** Byte offset of each commit frame of the current log, in order. */
  commitFrames: number[];
  /** Bytes per frame (header + page). */
  frameBytes: number;
}

export async function readWalLayout(path: string): Promise<WalLayout> {
  const wal = await readFile(path);
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  const frameBytes = 24 + pageSize;
  const commitFrames: number[] = [];
  for (let offset = 32; offset + frameBytes <= wal.length; offset += frameBytes) {
    if (wal.readUInt32BE(offset + 8) !== salts[0] || wal.readUInt32BE(offset + 12) !== salts[1]) break;
    if (wal.readUInt32BE(offset + 4) !== 0) commitFrames.push(offset);
  }
  return { commitFrames, frameBytes };
}
