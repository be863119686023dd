import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { crc32 } from 'node:zlib';

/**
 * Reads a journal of the store before SQLite: one `<crc32 as 8 hex> <json>` line per operation,
 * `{"p": record}` (insert or replace) or `{"d": id}` (delete). Replaying the lines in order gives
 * the live records. A line failing its checksum (a torn tail after a power cut, or damage) is
 * skipped and counted, as that store did at its own start.
 */
export interface LegacyJournal {
  records: Map<string | number, Record<string, unknown>>;
  skippedLines: number;
}

export async function readLegacyJournal(path: string): Promise<LegacyJournal> {
  const records = new Map<string | number, Record<string, unknown>>();
  let skippedLines = 0;
  const lines = createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (line.length === 0) continue;
    const entry = parseLine(line);
    if (entry && 'p' in entry && isKeyed(entry.p)) records.set(entry.p.id, entry.p);
    else if (entry && 'd' in entry && (typeof entry.d === 'string' || typeof entry.d === 'number')) {
      records.delete(entry.d);
    } else skippedLines++;
  }
  return { records, skippedLines };
}

function parseLine(line: string): Record<string, unknown> | undefined {
  const json = line.slice(9);
  if (line[8] !== ' ' || Number.parseInt(line.slice(0, 8), 16) !== crc32(json)) return undefined;
  try {
    const entry: unknown = JSON.parse(json);
    return typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function isKeyed(value: unknown): value is Record<string, unknown> & { id: string | number } {
  if (typeof value !== 'object' || value === null) return false;
  const { id } = value as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number';
}
