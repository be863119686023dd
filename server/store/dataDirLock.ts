import { join } from 'node:path';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { isMissingFileError, privateFileMode, type StoreFileSystem, writeFully } from './fileSystem.js';

export const lockFileName = 'gateway.lock';

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * One gateway per data directory: SQLite would keep two processes' writes apart, but each would
 * hold its own queue in memory and send the other's messages too, and the lowdb documents would
 * overwrite each other. The lock is a file holding the owner's
 * pid, created exclusively. A lock left by a process that no longer runs (crash, `kill -9`, power
 * cut) is taken over. A pid reused by an unrelated process after a reboot makes us refuse to
 * start with a message naming the file, which the user can delete.
 */
export async function lockDataDir(
  fs: StoreFileSystem,
  dataDir: string,
  logger: Logger,
  pid: number = process.pid,
): Promise<DataDirLock> {
  const path = join(dataDir, lockFileName);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await fs.open(path, 'wx', privateFileMode);
      try {
        await writeFully(handle, Buffer.from(`${pid}\n`));
        await handle.sync();
      } finally {
        await handle.close();
      }
      return { release: () => releaseLock(fs, path, pid) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new GatewayError(ErrorCode.StoreIo, `cannot create lock file ${path}`, {
          cause: error,
          field: 'dataDir',
        });
      }
    }
    const owner = await readOwner(fs, path);
    if (owner !== undefined && isRunning(owner)) {
      throw new GatewayError(
        ErrorCode.StoreIo,
        `data directory ${dataDir} is in use by another gateway (pid ${owner}); stop it or delete ${path} if it is not a gateway`,
        { field: 'dataDir' },
      );
    }
    logger.warn('taking over a stale data directory lock', { path, previousPid: owner });
    await fs.unlink(path).catch((unlinkError: unknown) => {
      if (!isMissingFileError(unlinkError)) throw unlinkError;
    });
  }
  throw new GatewayError(ErrorCode.StoreIo, `data directory ${dataDir} is being locked by another process`, {
    field: 'dataDir',
  });
}

async function readOwner(fs: StoreFileSystem, path: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await fs.readFile(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch (error) {
    if (isMissingFileError(error)) return undefined;
    throw new GatewayError(ErrorCode.StoreIo, `cannot read lock file ${path}`, { cause: error });
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    // Signal 0 checks existence only. EPERM: it exists but belongs to another user.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function releaseLock(fs: StoreFileSystem, path: string, pid: number): Promise<void> {
  // Never delete a lock another process took over (after ours was judged stale).
  const owner = await readOwner(fs, path).catch(() => undefined);
  if (owner !== pid) return;
  await fs.unlink(path).catch((error: unknown) => {
    if (!isMissingFileError(error)) throw error;
  });
}
