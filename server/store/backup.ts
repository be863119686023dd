import { chmod, rename, rm } from 'node:fs/promises';
import BetterSqlite3 from 'better-sqlite3';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { privateFileMode } from './fileSystem.js';

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
  let reader: BetterSqlite3.Database | undefined;
  try {
    reader = new BetterSqlite3(source, { readonly: true, fileMustExist: true });
    const { totalPages } = await reader.backup(partial);
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
