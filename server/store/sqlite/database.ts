import { chmodSync, closeSync, openSync } from 'node:fs';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { privateFileMode } from '../fileSystem.js';
import { openCheckpointer } from './checkpointer.js';
import { defaultThreadIdleMs } from './connectionWorker.js';
import { GroupCommit } from './groupCommit.js';
import { foundSchemaVersion, migrateSchema, registerStoredViewFunctions, schemaVersion } from './schema.js';
import { registerSearchFunctions } from './searchIndex.js';
import { type Database, openSqlite } from './sqlite.js';
import { WalSync } from './walSync.js';

export const databaseFileName = 'gateway.db';

export interface GatewayDatabase {
  readonly path: string;
  readonly db: Database;
  readonly commits: GroupCommit;
  /** Commits and flushes what is open, then closes (SQLite checkpoints and removes the WAL). */
  close(): Promise<void>;
}

/**
 * Opens (or creates) the gateway's database file. WAL lets readers and a backup run beside the
 * writer. Until the group commit takes over, the connection runs with synchronous=FULL (so the
 * journal migration is fsynced at each commit); from then on `GroupCommit` fsyncs the WAL itself,
 * off the event loop, before any write is acknowledged. A torn WAL tail (a commit cut by the
 * power going) fails its checksums and SQLite ignores it at open: only unacknowledged writes go.
 */
export function openDatabase(
  path: string,
  logger: Logger,
  threadIdleMs = defaultThreadIdleMs,
): GatewayDatabase {
  let db: Database;
  try {
    // SQLite gives the -wal and -shm files the main file's mode: make that owner-only first.
    closeSync(openSync(path, 'a', privateFileMode));
    chmodSync(path, privateFileMode);
    db = openSqlite(path);
  } catch (error) {
    throw new GatewayError(ErrorCode.StoreIo, `cannot open database ${path}`, { cause: error });
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    // Another connection (a backup) may hold the lock for a moment; wait instead of failing.
    db.pragma('busy_timeout = 5000');
    registerSearchFunctions(db);
    registerStoredViewFunctions(db);
    const startedAt = performance.now();
    // Some steps index every stored row again: say why a start with a long history waits.
    const found = foundSchemaVersion(db);
    if (found > 0 && found < schemaVersion)
      logger.info('bringing the database schema up to date', { path, from: found, to: schemaVersion });
    migrateSchema(db);
    if (found < schemaVersion) {
      logger.info('database schema brought up to date', {
        path,
        from: found,
        to: schemaVersion,
        ms: Math.round(performance.now() - startedAt),
      });
    }
  } catch (error) {
    db.close();
    if (error instanceof GatewayError) throw error;
    throw new GatewayError(ErrorCode.StoreCorrupt, `cannot use database ${path}`, { cause: error });
  }
  let wal: WalSync;
  try {
    wal = new WalSync(`${path}-wal`);
  } catch (error) {
    db.close();
    throw new GatewayError(ErrorCode.StoreIo, `cannot open the write-ahead log of ${path}`, { cause: error });
  }
  let commits: GroupCommit | undefined;
  const checkpointer = openCheckpointer(path, logger.child('checkpoints'), threadIdleMs);
  return {
    path,
    db,
    get commits() {
      commits ??= new GroupCommit(db, wal, checkpointer);
      return commits;
    },
    async close() {
      await commits?.close();
      // Its connection closes before this one: the last one to close checkpoints and removes the WAL.
      await checkpointer.close();
      db.close();
      wal.close();
    },
  };
}
