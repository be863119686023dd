import { uptime } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { isMissingFileError, privateFileMode, type StoreFileSystem, writeFully } from './fileSystem.js';

export const lockFileName = 'gateway.lock';

export interface DataDirLock {
  release(): Promise<void>;
}

/** What the lock asks of the machine; tests inject a reboot, a reused pid, the passing time. */
export interface LockHost {
  pid: number;
  now(): number;
  /** When the machine booted (ms since epoch), from the uptime. */
  bootedAt(): number;
  /** `process.kill(pid, 0)`: runs, is gone (ESRCH), or runs as someone we may not signal (EPERM). */
  probe(pid: number): 'running' | 'gone' | 'not-permitted';
  /** Repeats `refresh` until the returned function is called; must not keep the process alive. */
  every(intervalMs: number, refresh: () => void): () => void;
}

export const systemLockHost: LockHost = {
  pid: process.pid,
  now: () => Date.now(),
  bootedAt: () => Date.now() - uptime() * 1000,
  probe(pid) {
    try {
      process.kill(pid, 0);
      return 'running';
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'not-permitted' : 'gone';
    }
  },
  every(intervalMs, refresh) {
    const timer = setInterval(refresh, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** The owner touches the lock file this often, so a live lock always looks recent. */
export const lockHeartbeatMs = 15_000;
/** A lock nobody touched for this long has no live owner, whatever its pid now names. */
const abandonedAfterMs = 120_000;
/** Boot times computed from uptime differ by clock adjustments; a reboot moves them far more. */
const bootToleranceMs = 60_000;

interface LockOwner {
  pid: number;
  /** Absent in lock files of older versions (they held the pid only). */
  bootedAt?: number;
}

/**
 * One gateway per data directory: SQLite would keep two processes' writes apart, but each would
 * hold its own queue in memory and send the other's messages too, and the lowdb documents would
 * overwrite each other. The lock is a file created exclusively,
 * holding the owner's pid and the machine's boot time, and touched by its owner every 15 s.
 *
 * A pid alone cannot tell a live owner after a reboot: the old pid may now belong to another
 * process, and `process.kill(pid, 0)` then succeeds or answers EPERM (a system process on
 * Windows), which locked users out. So a lock is taken over (crash, `kill -9`, power cut,
 * reboot) when its pid is gone; when nobody touched it for 2 minutes (a reused pid, Windows Fast
 * Startup keeping the boot time); or when it comes from another boot and was not touched for
 * twice the heartbeat.
 */
export async function lockDataDir(
  fs: StoreFileSystem,
  dataDir: string,
  logger: Logger,
  host: LockHost = systemLockHost,
): Promise<DataDirLock> {
  const path = join(dataDir, lockFileName);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await fs.open(path, 'wx', privateFileMode);
      try {
        const owner: LockOwner = { pid: host.pid, bootedAt: host.bootedAt() };
        await writeFully(handle, Buffer.from(`${JSON.stringify(owner)}\n`));
        await handle.sync();
      } finally {
        await handle.close();
      }
      const stopHeartbeat = host.every(lockHeartbeatMs, () => {
        void touch(fs, path, host.now()).catch((error: unknown) =>
          logger.warn('cannot refresh the data directory lock', { path, error }),
        );
      });
      return {
        release: async () => {
          stopHeartbeat();
          await releaseLock(fs, path, host.pid);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new GatewayError(ErrorCode.StoreIo, `cannot create lock file ${path}`, {
          cause: error,
          field: 'dataDir',
        });
      }
    }
    const owner = await readOwner(fs, path);
    const stale = owner === undefined ? 'unreadable' : await staleness(fs, path, owner, host);
    if (owner !== undefined && stale === undefined) {
      throw new GatewayError(
        ErrorCode.DataDirLocked,
        `data directory ${dataDir} is in use by another gateway (pid ${owner.pid}); stop it, or delete ${path} if no gateway runs`,
        { field: 'dataDir' },
      );
    }
    logger.warn('taking over a stale data directory lock', { path, previousPid: owner?.pid, reason: stale });
    await fs.unlink(path).catch((unlinkError: unknown) => {
      if (!isMissingFileError(unlinkError)) throw unlinkError;
    });
  }
  throw new GatewayError(ErrorCode.StoreIo, `data directory ${dataDir} is being locked by another process`, {
    field: 'dataDir',
  });
}

/** Why the lock has no live owner, or undefined when it may have one. */
async function staleness(
  fs: StoreFileSystem,
  path: string,
  owner: LockOwner,
  host: LockHost,
): Promise<string | undefined> {
  if (host.probe(owner.pid) === 'gone') return 'its process is gone';
  const untouchedMs = host.now() - (await fs.stat(path)).mtimeMs;
  if (untouchedMs > abandonedAfterMs) return 'not refreshed for 2 minutes';
  const otherBoot =
    owner.bootedAt !== undefined && Math.abs(owner.bootedAt - host.bootedAt()) > bootToleranceMs;
  if (otherBoot && untouchedMs > 2 * lockHeartbeatMs) return 'left from before a reboot';
  return undefined;
}

async function touch(fs: StoreFileSystem, path: string, now: number): Promise<void> {
  const handle = await fs.open(path, 'r+');
  try {
    const time = new Date(now);
    await handle.utimes(time, time);
  } finally {
    await handle.close();
  }
}

async function readOwner(fs: StoreFileSystem, path: string): Promise<LockOwner | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    if (isMissingFileError(error)) return undefined;
    throw new GatewayError(ErrorCode.StoreIo, `cannot read lock file ${path}`, { cause: error });
  }
  return parseOwner(text);
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'number') return validPid(parsed) ? { pid: parsed } : undefined;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { pid, bootedAt } = parsed as { pid?: unknown; bootedAt?: unknown };
    if (!validPid(pid)) return undefined;
    return typeof bootedAt === 'number' ? { pid, bootedAt } : { pid };
  } catch {
    return undefined;
  }
}

function validPid(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

async function releaseLock(fs: StoreFileSystem, path: string, pid: number): Promise<void> {
  // Never delete a lock another process took over (after ours was judged stale).
  const owner = await readOwner(fs, path).catch(() => undefined);
  if (owner?.pid !== pid) return;
  await fs.unlink(path).catch((error: unknown) => {
    if (!isMissingFileError(error)) throw error;
  });
}
