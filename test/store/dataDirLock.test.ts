import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { type LockHost, lockDataDir, lockFileName, lockHeartbeatMs } from '../../server/store/dataDirLock.js';
import { nodeFileSystem } from '../../server/store/fileSystem.js';

const MINUTE = 60_000;
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'smsgw-lock-'));
  directories.push(dir);
  return dir;
}

/** A machine whose time, boot and processes the test sets; heartbeats run when `beat()` says. */
function machine(options: {
  pid: number;
  bootedAt: number;
  processes: Record<number, 'running' | 'not-permitted'>;
}) {
  const beats = new Set<() => void>();
  const host: LockHost = {
    pid: options.pid,
    now: () => Date.now(),
    bootedAt: () => options.bootedAt,
    probe: (pid) => options.processes[pid] ?? 'gone',
    every: (_intervalMs, refresh) => {
      beats.add(refresh);
      return () => beats.delete(refresh);
    },
  };
  return {
    host,
    beat: () => {
      for (const refresh of beats) refresh();
    },
    beating: () => beats.size,
  };
}

/** Makes the lock file look last touched `ageMs` ago. */
async function age(dir: string, ageMs: number): Promise<void> {
  const then = new Date(Date.now() - ageMs);
  await utimes(join(dir, lockFileName), then, then);
}

const locked = (error: unknown) => isGatewayError(error, ErrorCode.DataDirLocked);
const bootedAt = Date.now() - 3_600_000;

describe('the data directory lock', () => {
  it('refuses a second gateway while the first one runs and refreshes its lock', async () => {
    const dir = await dataDir();
    const first = machine({ pid: 100, bootedAt, processes: { 100: 'running' } });
    await lockDataDir(nodeFileSystem, dir, silentLogger, first.host);
    await age(dir, 5 * MINUTE);
    first.beat();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = machine({ pid: 200, bootedAt, processes: { 100: 'running', 200: 'running' } });
    await expect(lockDataDir(nodeFileSystem, dir, silentLogger, second.host)).rejects.toSatisfy(locked);
  });

  it('is taken over after a reboot even when the old pid now names another process (EPERM)', async () => {
    const dir = await dataDir();
    const before = machine({ pid: 4242, bootedAt, processes: { 4242: 'running' } });
    await lockDataDir(nodeFileSystem, dir, silentLogger, before.host);
    // Rebooted 40 s later: pid 4242 is now a system process the user may not signal.
    await age(dir, 40_000);
    const after = machine({
      pid: 300,
      bootedAt: Date.now() - 20_000,
      processes: { 4242: 'not-permitted', 300: 'running' },
    });
    const lock = await lockDataDir(nodeFileSystem, dir, silentLogger, after.host);
    await lock.release();
  });

  it('is taken over after a reboot when the old pid names one of the user’s own processes', async () => {
    const dir = await dataDir();
    const before = machine({ pid: 4242, bootedAt, processes: { 4242: 'running' } });
    await lockDataDir(nodeFileSystem, dir, silentLogger, before.host);
    await age(dir, 40_000);
    const after = machine({ pid: 300, bootedAt: Date.now() - 20_000, processes: { 4242: 'running' } });
    await expect(lockDataDir(nodeFileSystem, dir, silentLogger, after.host)).resolves.toBeDefined();
  });

  it('is taken over when its owner stopped refreshing it, even with the same boot (Windows Fast Startup)', async () => {
    const dir = await dataDir();
    const owner = machine({ pid: 4242, bootedAt, processes: { 4242: 'running' } });
    await lockDataDir(nodeFileSystem, dir, silentLogger, owner.host);
    const later = machine({ pid: 300, bootedAt, processes: { 4242: 'not-permitted' } });
    await age(dir, lockHeartbeatMs);
    await expect(lockDataDir(nodeFileSystem, dir, silentLogger, later.host)).rejects.toSatisfy(locked);
    await age(dir, 3 * MINUTE);
    await expect(lockDataDir(nodeFileSystem, dir, silentLogger, later.host)).resolves.toBeDefined();
  });

  it('is taken over when its process is gone, and reads the pid-only files of older versions', async () => {
    const dir = await dataDir();
    await writeFile(join(dir, lockFileName), '4242\n');
    const host = machine({ pid: 300, bootedAt, processes: { 4242: 'running' } });
    await expect(lockDataDir(nodeFileSystem, dir, silentLogger, host.host)).rejects.toSatisfy(locked);
    const gone = machine({ pid: 300, bootedAt, processes: {} });
    await expect(lockDataDir(nodeFileSystem, dir, silentLogger, gone.host)).resolves.toBeDefined();
  });

  it('stops refreshing on release', async () => {
    const dir = await dataDir();
    const owner = machine({ pid: 100, bootedAt, processes: { 100: 'running' } });
    const lock = await lockDataDir(nodeFileSystem, dir, silentLogger, owner.host);
    expect(owner.beating()).toBe(1);
    await lock.release();
    expect(owner.beating()).toBe(0);
  });
});
