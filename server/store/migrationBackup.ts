import { access, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logging/logger.js';
import { backupDatabase } from './backup.js';
import { privateDirMode } from './fileSystem.js';
import { foundSchemaVersion, schemaVersion } from './sqlite/schema.js';
import { openSqlite } from './sqlite/sqlite.js';

/** A schema migration about to run, and the copy of the database taken before it. */
export interface SchemaUpgrade {
  from: number;
  to: number;
  backup: string;
}

export const migrationBackupFolder = 'backups';
/** Copies kept: the newest few, so a run of upgrades never fills the disk. */
export const migrationBackupsKept = 3;
const backupName = /^before-schema-\d+-(\d{8}T\d{6}Z)\.db$/;

/**
 * Before a newer build migrates `gateway.db`, copies it to `backups/before-schema-<to>-<time>.db`
 * (SQLite's online backup, complete or absent) and keeps only the newest few such copies. A
 * migration runs in one transaction, but a build with a wrong step would commit it: the copy is
 * the way back. Answers undefined when there is nothing to migrate (a new file, an up-to-date
 * one, or one from a newer build, which the migration itself refuses).
 */
export async function backupBeforeMigration(
  databasePath: string,
  dataDir: string,
  logger: Logger,
  now: Date,
): Promise<SchemaUpgrade | undefined> {
  const from = await schemaVersionOf(databasePath);
  if (from === undefined || from === 0 || from >= schemaVersion) return undefined;
  const folder = join(dataDir, migrationBackupFolder);
  await mkdir(folder, { recursive: true, mode: privateDirMode });
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const backup = join(folder, `before-schema-${schemaVersion}-${stamp}.db`);
  await backupDatabase(databasePath, backup, logger);
  await pruneBackups(folder, logger);
  return { from, to: schemaVersion, backup };
}

async function schemaVersionOf(path: string): Promise<number | undefined> {
  try {
    await access(path);
  } catch {
    return undefined;
  }
  const db = openSqlite(path, { readOnly: true, mustExist: true });
  try {
    return foundSchemaVersion(db);
  } finally {
    db.close();
  }
}

async function pruneBackups(folder: string, logger: Logger): Promise<void> {
  const copies = (await readdir(folder))
    .flatMap((name) => {
      const stamp = backupName.exec(name)?.[1];
      return stamp ? [{ name, stamp }] : [];
    })
    .sort((left, right) => right.stamp.localeCompare(left.stamp) || right.name.localeCompare(left.name));
  for (const old of copies.slice(migrationBackupsKept)) {
    await rm(join(folder, old.name), { force: true });
    logger.info('older migration backup removed', { file: old.name });
  }
}
