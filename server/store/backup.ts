import { chmod, rename, rm } from 'node:fs/promises';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { privateFileMode } from './fileSystem.js';
import { backupTo, type Database, openSqlite } from './sqlite/sqlite.js';

/**
 * Copies the database to `target` with SQLite's online backup, from a read-only connection of
 * its own: it copies the last committed state (a WAL snapshot), never a batch still open on the
 * gateway's connection, and the copy runs a hundred pages per turn of the event loop, so sends go
 * on meanwhile. The copy is written beside `target` and renamed into place, so `target` is either
 * absent or complete.
 */
export async function backupDatabase(source: string, target: string, logger: Logger): Promise<void> {
  const partial = `${target}.partial`;
  const startedAt = Date.now();
  let reader: Database | undefined;
  try {
    reader = openSqlite(source, { readOnly: true, mustExist: true });
    const totalPages = await backupTo(reader, partial);
    await chmod(partial, privateFileMode);
    await rename(partial, target);
    logger.info('database backed up', { target, pages: totalPages, ms: Date.now() - startedAt });
  } catch (error) {
    await rm(partial, { force: true });
    throw new GatewayError(ErrorCode.StoreIo, `cannot back up ${source} to ${target}`, { cause: error });
  } finally {
    reader?.close();
  }
}
