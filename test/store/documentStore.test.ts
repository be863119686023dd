import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import { type DocumentMigration, openDocument } from '../../server/store/documentStore.js';
import { nodeFileSystem, type StoreFileSystem } from '../../server/store/fileSystem.js';
import { recordingLogger, temporaryDirectory } from './storeTestKit.js';

interface Settings {
  name: string;
  retries: number;
  tags?: string[];
}

const defaults: Settings = { name: 'gateway', retries: 1 };

let dir: { path: string; remove: () => Promise<void> };
let path: string;
let clock: ManualClock;

beforeEach(async () => {
  dir = await temporaryDirectory();
  path = join(dir.path, 'settings.json');
  clock = new ManualClock(Date.UTC(2026, 4, 1, 12, 0, 0));
});

afterEach(async () => {
  await dir.remove();
});

function open(
  options: { migrations?: DocumentMigration[]; fs?: StoreFileSystem; logger?: typeof silentLogger } = {},
) {
  return openDocument<Settings>({
    path,
    defaults,
    clock,
    logger: options.logger ?? silentLogger,
    ...(options.migrations ? { migrations: options.migrations } : {}),
    ...(options.fs ? { fs: options.fs } : {}),
  });
}

async function onDisk(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
}

describe('openDocument', () => {
  it('creates the file from the defaults with mode 0600 and the current version', async () => {
    const document = await open({ migrations: [(data) => data] });
    expect(document.data).toEqual({ name: 'gateway', retries: 1, version: 1 });
    expect(await onDisk()).toEqual({ name: 'gateway', retries: 1, version: 1 });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('does not share objects with the defaults it was given', async () => {
    const document = await open();
    await document.update((data) => {
      data.name = 'changed';
    });
    expect(defaults.name).toBe('gateway');
  });

  it('persists an update before its promise resolves, and reads it back on reopen', async () => {
    const document = await open();
    await document.update((data) => {
      data.retries = 5;
    });
    expect((await onDisk()).retries).toBe(5);
    const reopened = await open();
    expect(reopened.data.retries).toBe(5);
  });

  it('writes every concurrent update, the last state winning, without overlapping writes', async () => {
    const document = await open();
    const updates = Array.from({ length: 20 }, (_, n) =>
      document.update((data) => {
        data.retries = n;
        data.tags = [...(data.tags ?? []), `t${n}`];
      }),
    );
    await Promise.all(updates);
    expect((await onDisk()).retries).toBe(19);
    expect((await onDisk()).tags).toHaveLength(20);
    expect((await readdir(dir.path)).sort()).toEqual(['settings.json']);
  });

  it('keeps the old file whole when a write dies before the rename (atomic write)', async () => {
    const document = await open();
    await document.update((data) => {
      data.name = 'before';
    });
    let refuseRename = true;
    const crashingFs: StoreFileSystem = {
      ...nodeFileSystem,
      rename: (from, to) =>
        refuseRename ? Promise.reject(new Error('power cut')) : nodeFileSystem.rename(from, to),
    };
    const crashing = await open({ fs: crashingFs });
    const failed = crashing.update((data) => {
      data.name = 'after';
    });
    await expect(failed).rejects.toSatisfy((error) => isGatewayError(error, ErrorCode.StoreIo));
    expect((await onDisk()).name).toBe('before');
    refuseRename = false;
    await crashing.update((data) => {
      data.name = 'after';
    });
    expect((await onDisk()).name).toBe('after');
  });

  it('migrates an old file forward one step at a time and writes the result back', async () => {
    await writeFile(path, JSON.stringify({ title: 'old name' }));
    const steps: number[] = [];
    const migrations: DocumentMigration[] = [
      (data) => {
        steps.push(0);
        const { title, ...rest } = data;
        return { ...rest, name: title, retries: 0 };
      },
      (data) => {
        steps.push(1);
        return { ...data, retries: (data.retries as number) + 3 };
      },
    ];
    const document = await open({ migrations });
    expect(steps).toEqual([0, 1]);
    expect(document.data).toEqual({ name: 'old name', retries: 3, version: 2 });
    expect(await onDisk()).toEqual({ name: 'old name', retries: 3, version: 2 });
    expect(JSON.parse(await readFile(`${path}.v0.backup`, 'utf8'))).toEqual({ title: 'old name' });
    expect((await stat(`${path}.v0.backup`)).mode & 0o777).toBe(0o600);
  });

  it('runs only the migrations after the stored version', async () => {
    await writeFile(path, JSON.stringify({ name: 'x', retries: 1, version: 1 }));
    const document = await open({
      migrations: [
        () => {
          throw new Error('must not run');
        },
        (data) => ({ ...data, retries: 2 }),
      ],
    });
    expect(document.data).toEqual({ name: 'x', retries: 2, version: 2 });
  });

  it('refuses to start from a migration that returns no object, keeping the file', async () => {
    await writeFile(path, JSON.stringify({ name: 'x', retries: 1 }));
    const broken = (() => undefined) as unknown as DocumentMigration;
    await expect(open({ migrations: [broken] })).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.StoreCorrupt),
    );
    expect(await onDisk()).toEqual({ name: 'x', retries: 1 });
  });

  it('refuses a file written by a newer version as StoreNewerThanBuild, leaving it untouched', async () => {
    await writeFile(path, JSON.stringify({ name: 'x', retries: 1, version: 7 }));
    await expect(open({ migrations: [(data) => data] })).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.StoreNewerThanBuild),
    );
    expect((await onDisk()).version).toBe(7);
  });

  it.each([
    ['an empty file', ''],
    ['a half-written file', '{"name": "gate'],
    ['JSON that is not an object', '[1, 2]'],
  ])('moves %s aside, reports it and starts from the defaults', async (_name, content) => {
    await writeFile(path, content);
    const { logger, records } = recordingLogger();
    const document = await open({ logger });
    const backupPath = `${path}.corrupt-2026-05-01T12-00-00-000Z`;
    expect(document.recovered?.backupPath).toBe(backupPath);
    expect(await readFile(backupPath, 'utf8')).toBe(content);
    expect(document.data).toEqual({ name: 'gateway', retries: 1, version: 0 });
    expect(
      records.some((record) => record.priority === 'ERROR' && record.context?.backupPath === backupPath),
    ).toBe(true);
    await document.update((data) => {
      data.retries = 2;
    });
    expect(document.data.retries).toBe(2);
  });

  it('tightens an existing file to mode 0600', async () => {
    await writeFile(path, JSON.stringify({ name: 'x', retries: 1, version: 0 }), { mode: 0o644 });
    await open();
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });
});
