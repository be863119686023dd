import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../clock/clock.js';
import type { IncomingRecord } from '../contract/domain/incoming.js';
import type { MessageRecord } from '../contract/domain/message.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { nodeFileSystem, privateDirMode, syncDirectoryOf } from './fileSystem.js';
import { incomingRow } from './inboxRepository.js';
import { readLegacyJournal } from './legacyJournal.js';
import { logRow } from './logRepository.js';
import { messageRow } from './messageRepository.js';
import type { StoredLogEntry } from './repositories.js';
import type { Database } from './sqlite/sqlite.js';

export interface JournalMigrationOptions {
  dataDir: string;
  db: Database;
  clock: Clock;
  logger: Logger;
  /** The collection that takes the groups of `pending-parts.json`. */
  pendingPartsCollection: string;
}

type Row = Record<string, string | number | null>;

/** Where each journal of the old store goes; any other `<name>.journal` is the collection `<name>`. */
const tables: Record<string, { table: string; row: (record: Record<string, unknown>) => Row }> = {
  messages: { table: 'messages', row: (record) => ({ ...messageRow(record as unknown as MessageRecord) }) },
  inbox: { table: 'inbox', row: (record) => ({ ...incomingRow(record as unknown as IncomingRecord) }) },
  logs: { table: 'logs', row: (record) => ({ ...logRow(record as unknown as StoredLogEntry) }) },
};

const journalSuffix = '.journal';
const pendingPartsFile = 'pending-parts.json';
const rowsPerTransaction = 10_000;

/**
 * Moves a data directory written by the journal store (before SQLite) into the database, on the
 * first start of this version: every journal is replayed (checksums checked, as that store did)
 * and its live records inserted; then the old files are moved aside into `journals-migrated/`,
 * never deleted. Inserts ignore rows already there, so a migration cut by a crash is simply
 * done again at the next start, with the same result.
 */
export async function migrateJournals(options: JournalMigrationOptions): Promise<void> {
  try {
    await migrate(options);
  } catch (error) {
    throw new GatewayError(ErrorCode.StoreIo, `cannot migrate the journals in ${options.dataDir}`, {
      cause: error,
    });
  }
}

async function migrate(options: JournalMigrationOptions): Promise<void> {
  const { dataDir, db, logger } = options;
  const names = await readdir(dataDir);
  const journals = names.filter((name) => name.endsWith(journalSuffix));
  const hasPendingParts = names.includes(pendingPartsFile);
  if (journals.length === 0 && !hasPendingParts) return;

  const counts: Record<string, number> = {};
  for (const file of journals) {
    const name = file.slice(0, -journalSuffix.length);
    const { records, skippedLines } = await readLegacyJournal(join(dataDir, file));
    if (skippedLines > 0) {
      logger.warn('journal lines failing their checksum were not migrated (torn or damaged writes)', {
        file,
        skippedLines,
      });
    }
    const target = tables[name] ?? {
      table: 'collections',
      row: (record: Record<string, unknown>) => ({
        collection: name,
        id: String(record.id),
        body: JSON.stringify(record),
      }),
    };
    insertAll(db, target.table, [...records.values()].map(target.row));
    counts[name] = records.size;
  }
  if (hasPendingParts) {
    const groups = await readPendingParts(join(dataDir, pendingPartsFile), logger);
    insertAll(
      db,
      'collections',
      groups.map((group) => ({
        collection: options.pendingPartsCollection,
        id: group.key,
        body: JSON.stringify({ id: group.key, group }),
      })),
    );
    counts['pending-parts'] = groups.length;
  }

  const aside = await asideFolder(dataDir, names, options.clock);
  for (const file of [...journals, ...(hasPendingParts ? [pendingPartsFile] : [])]) {
    await rename(join(dataDir, file), join(aside, file));
  }
  await syncDirectoryOf(nodeFileSystem, join(aside, pendingPartsFile));
  await syncDirectoryOf(nodeFileSystem, join(dataDir, pendingPartsFile));
  logger.info('migrated the journal store into the database; the journals are kept, moved aside', {
    ...counts,
    movedTo: aside,
  });
}

function insertAll(db: Database, table: string, rows: readonly Row[]): void {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const insert = db.prepare(
    `INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`,
  );
  const insertChunk = db.transaction((chunk: readonly Row[]) => {
    for (const row of chunk) insert.run(row);
  });
  for (let start = 0; start < rows.length; start += rowsPerTransaction) {
    insertChunk(rows.slice(start, start + rowsPerTransaction));
  }
}

interface PendingGroupLike {
  key: string;
}

async function readPendingParts(path: string, logger: Logger): Promise<PendingGroupLike[]> {
  try {
    const content = JSON.parse(await readFile(path, 'utf8')) as { groups?: unknown };
    if (Array.isArray(content.groups)) {
      return content.groups.filter(
        (group: unknown): group is PendingGroupLike =>
          typeof group === 'object' && group !== null && typeof (group as PendingGroupLike).key === 'string',
      );
    }
  } catch (error) {
    logger.error('pending-parts.json cannot be read: its parts were not migrated (the file is kept)', {
      error,
    });
    return [];
  }
  logger.error('pending-parts.json holds no groups: nothing migrated from it (the file is kept)');
  return [];
}

/** `journals-migrated/`, or a dated name beside it when an earlier migration left one. */
async function asideFolder(dataDir: string, names: readonly string[], clock: Clock): Promise<string> {
  const plain = 'journals-migrated';
  const folder = join(dataDir, names.includes(plain) ? `${plain}-${clock.now()}` : plain);
  await mkdir(folder, { recursive: true, mode: privateDirMode });
  return folder;
}
