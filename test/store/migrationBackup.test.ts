import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { migrationBackupFolder, type SchemaUpgrade } from '../../server/store/migrationBackup.js';
import { databaseFileName } from '../../server/store/sqlite/database.js';
import { schemaSteps, schemaVersion } from '../../server/store/sqlite/schema.js';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import { openStorage } from '../../server/store/storage.js';
import { message, schemaOneMessageRow, temporaryDirectory } from './storeTestKit.js';

let dir: { path: string; remove: () => Promise<void> };
let dataDir: string;

beforeEach(async () => {
  dir = await temporaryDirectory();
  dataDir = join(dir.path, 'data');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
});

afterEach(async () => {
  await dir.remove();
});

/** A data directory as the build of schema 1 left it, with two sent messages. */
function writeSchemaOneDatabase(): void {
  const older = openSqlite(join(dataDir, databaseFileName));
  older.exec(schemaSteps[0] ?? '');
  older.pragma('user_version = 1');
  const insert = older.prepare(
    `INSERT INTO messages (id, created_at, seq, state, state_at, device_id, search, body)
     VALUES (@id, @created_at, @seq, @state, @state_at, @device_id, @search, @body)`,
  );
  for (const id of ['m1', 'm2']) insert.run(schemaOneMessageRow(message({ id, state: 'Sent' })));
  older.close();
}

function versionAndRows(path: string): { version: number; rows: number } {
  const db = openSqlite(path, { readOnly: true, mustExist: true });
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    const rows = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
    return { version, rows };
  } finally {
    db.close();
  }
}

async function openAt(time: number, upgrades: SchemaUpgrade[] = []) {
  return openStorage({
    dataDir,
    clock: new ManualClock(time),
    logger: silentLogger,
    onSchemaUpgrade: (upgrade) => upgrades.push(upgrade),
  });
}

describe('a schema migration', () => {
  it('is preceded by a backup of the database as it was, and says it is running', async () => {
    writeSchemaOneDatabase();
    const upgrades: SchemaUpgrade[] = [];
    const storage = await openAt(Date.UTC(2026, 10, 27, 9, 30, 5), upgrades);
    await storage.close();

    const backup = join(dataDir, migrationBackupFolder, `before-schema-${schemaVersion}-20261127T093005Z.db`);
    expect(upgrades).toEqual([{ from: 1, to: schemaVersion, backup }]);
    expect(versionAndRows(backup)).toEqual({ version: 1, rows: 2 });
    expect(versionAndRows(join(dataDir, databaseFileName))).toEqual({ version: schemaVersion, rows: 2 });
  });

  it('keeps only the newest three backups', async () => {
    const folder = join(dataDir, migrationBackupFolder);
    await mkdir(folder, { recursive: true });
    const earlier = ['20250101T000000Z', '20250601T000000Z', '20251001T000000Z'];
    for (const stamp of earlier) await writeFile(join(folder, `before-schema-3-${stamp}.db`), 'old');
    await writeFile(join(folder, 'notes.txt'), 'a file of the user’s own');
    writeSchemaOneDatabase();
    const storage = await openAt(Date.UTC(2026, 0, 2));
    await storage.close();
    expect((await readdir(folder)).sort()).toEqual(
      [
        'before-schema-3-20250601T000000Z.db',
        'before-schema-3-20251001T000000Z.db',
        `before-schema-${schemaVersion}-20260102T000000Z.db`,
        'notes.txt',
      ].sort(),
    );
  });

  it('copies nothing for a new database or one already up to date', async () => {
    const upgrades: SchemaUpgrade[] = [];
    await (await openAt(0, upgrades)).close();
    await (await openAt(1, upgrades)).close();
    expect(upgrades).toEqual([]);
    expect(await readdir(dataDir)).not.toContain(migrationBackupFolder);
  });

  it('refuses a database from a newer build as StoreNewerThanBuild and leaves it as it was', async () => {
    writeSchemaOneDatabase();
    const newer = openSqlite(join(dataDir, databaseFileName));
    newer.pragma(`user_version = ${schemaVersion + 1}`);
    newer.close();
    await expect(openAt(0)).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.StoreNewerThanBuild),
    );
    expect(versionAndRows(join(dataDir, databaseFileName))).toEqual({ version: schemaVersion + 1, rows: 2 });
    expect(await readdir(dataDir)).not.toContain(migrationBackupFolder);
  });
});
