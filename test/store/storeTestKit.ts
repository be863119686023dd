import type { FileHandle } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Logger, type LogRecord } from '../../server/logging/logger.js';
import type { MessageRecord, MessageState } from '../../server/messages/model.js';
import { nodeFileSystem, type StoreFileSystem } from '../../server/store/journal/fileSystem.js';

/** A fresh directory under the OS temp dir, removed by the returned `remove`. */
export async function temporaryDirectory(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'smsgw-store-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A logger that keeps what it is told, for asserting that damage was reported. */
export function recordingLogger(): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  return { logger: createLogger({ level: 'DEBUG', sinks: [(record) => records.push(record)] }), records };
}

export interface FileSystemCounters {
  writes: number;
  datasyncs: number;
}

/**
 * The real file system, with `write` and `datasync` counted on every handle it opens, and an
 * optional hook that can make a write fail (disk full) before it reaches the disk.
 */
export function countingFileSystem(failWrite?: () => Error | undefined): {
  fs: StoreFileSystem;
  counters: FileSystemCounters;
} {
  const counters: FileSystemCounters = { writes: 0, datasyncs: 0 };
  const open = (async (...args: Parameters<typeof nodeFileSystem.open>) => {
    const handle: FileHandle = await nodeFileSystem.open(...args);
    const write = handle.write.bind(handle) as (...writeArgs: unknown[]) => Promise<unknown>;
    const datasync = handle.datasync.bind(handle);
    Object.assign(handle, {
      write: (...writeArgs: unknown[]) => {
        counters.writes++;
        const failure = failWrite?.();
        return failure ? Promise.reject(failure) : write(...writeArgs);
      },
      datasync: () => {
        counters.datasyncs++;
        return datasync();
      },
    });
    return handle;
  }) as StoreFileSystem['open'];
  return { fs: { ...nodeFileSystem, open }, counters };
}

/** A minimal valid message; `overrides` set what the test is about. */
export function message(overrides: Partial<MessageRecord> & { id: string }): MessageRecord {
  const state: MessageState = overrides.state ?? 'Pending';
  return {
    content: { kind: 'text', text: `hello ${overrides.id}` },
    recipients: [{ phoneNumber: '+15550000001', state }],
    withDeliveryReport: false,
    priority: 0,
    isEncrypted: false,
    createdAt: Date.UTC(2026, 0, 1),
    sequence: 0,
    states: { [state]: Date.UTC(2026, 0, 1) },
    state,
    ...overrides,
  };
}

/**
 * The real file system, except that writes to a compaction's temp file (`*.tmp`) wait until
 * `release()`. `held` resolves when the first such write is waiting: the compaction has taken
 * its snapshot and is provably in the middle of writing.
 */
export function gatedCompactionFileSystem(): {
  fs: StoreFileSystem;
  held: Promise<void>;
  release: () => void;
} {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let signalHeld!: () => void;
  const held = new Promise<void>((resolve) => {
    signalHeld = resolve;
  });
  const open = (async (...args: Parameters<typeof nodeFileSystem.open>) => {
    const handle: FileHandle = await nodeFileSystem.open(...args);
    if (String(args[0]).endsWith('.tmp')) {
      const write = handle.write.bind(handle) as (...writeArgs: unknown[]) => Promise<unknown>;
      Object.assign(handle, {
        write: (...writeArgs: unknown[]) => {
          signalHeld();
          return gate.then(() => write(...writeArgs));
        },
      });
    }
    return handle;
  }) as StoreFileSystem['open'];
  return { fs: { ...nodeFileSystem, open }, held, release };
}
