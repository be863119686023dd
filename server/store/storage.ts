import { join } from 'node:path';
import type { Clock } from '../clock/clock.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { type DataDirLock, lockDataDir } from './dataDirLock.js';
import { type Document, type DocumentMigration, openDocument } from './documentStore.js';
import { JournalInboxRepository } from './inboxRepository.js';
import {
  nodeFileSystem,
  privateDirMode,
  type StoreFileSystem,
  writeFileAtomically,
} from './journal/fileSystem.js';
import { type CompactionPolicy, JournalCollection, type RecordKey } from './journal/journalCollection.js';
import { JournalLogRepository } from './logRepository.js';
import { JournalMessageRepository } from './messageRepository.js';
import type { InboxRepository, LogRepository, MessageRepository } from './repositories.js';

export interface StorageOptions {
  dataDir: string;
  clock: Clock;
  logger: Logger;
  fs?: StoreFileSystem;
  compaction?: CompactionPolicy;
  /** Cap on stored log entries (see `JournalLogRepository`). */
  maxLogEntries?: number;
}

export interface Storage {
  readonly dataDir: string;
  readonly messages: MessageRepository;
  readonly inbox: InboxRepository;
  readonly logs: LogRepository;
  /** A journal-backed collection `<name>.journal` (webhook outbox, …). Open each name once. */
  openCollection<T extends { id: RecordKey }>(name: string): Promise<JournalCollection<T>>;
  /** A small lowdb document `<name>.json` (settings, webhooks, tokens, devices). */
  openDocument<T extends object>(
    name: string,
    defaults: T,
    migrations?: readonly DocumentMigration[],
  ): Promise<Document<T>>;
  /** For the health check: can the data directory take a durable write right now? */
  checkWritable(): Promise<boolean>;
  /** Waits for pending writes, closes every journal and releases the directory lock. */
  close(): Promise<void>;
}

/** Names become file names: keep them to a safe alphabet (no paths, no dots). */
const namePattern = /^[a-z0-9][a-z0-9-]*$/;

/**
 * Opens the data directory: creates it (0700), takes the lock, loads the message, inbox and log
 * journals. Everything opened through the returned object is closed by `close()`.
 */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const { dataDir, clock } = options;
  const fs = options.fs ?? nodeFileSystem;
  const logger = options.logger.child('store');
  try {
    await fs.mkdir(dataDir, { recursive: true, mode: privateDirMode });
  } catch (error) {
    throw new GatewayError(ErrorCode.StoreIo, `cannot create data directory ${dataDir}`, {
      cause: error,
      field: 'dataDir',
    });
  }
  const lock = await lockDataDir(fs, dataDir, logger);
  const closers: (() => Promise<void>)[] = [];
  try {
    const journal = (name: string) => ({
      path: join(dataDir, `${name}.journal`),
      logger: logger.child(name),
      fs,
      ...(options.compaction ? { compaction: options.compaction } : {}),
    });
    const messages = await JournalMessageRepository.open(journal('messages'));
    closers.push(() => messages.close());
    const inbox = await JournalInboxRepository.open(journal('inbox'));
    closers.push(() => inbox.close());
    const logs = await JournalLogRepository.open({
      ...journal('logs'),
      ...(options.maxLogEntries === undefined ? {} : { maxEntries: options.maxLogEntries }),
    });
    closers.push(() => logs.close());
    return new DataDirStorage(dataDir, messages, inbox, logs, closers, lock, journal, clock, logger, fs);
  } catch (error) {
    await closeAll(closers, logger);
    await lock.release().catch(() => undefined);
    throw error;
  }
}

class DataDirStorage implements Storage {
  private readonly openNames = new Set<string>();
  private closed = false;

  constructor(
    readonly dataDir: string,
    readonly messages: JournalMessageRepository,
    readonly inbox: JournalInboxRepository,
    readonly logs: JournalLogRepository,
    private readonly closers: (() => Promise<void>)[],
    private readonly lock: DataDirLock,
    private readonly journalOptions: (name: string) => {
      path: string;
      logger: Logger;
      fs: StoreFileSystem;
      compaction?: CompactionPolicy;
    },
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly fs: StoreFileSystem,
  ) {
    for (const name of ['messages', 'inbox', 'logs']) this.openNames.add(`${name}.journal`);
  }

  async openCollection<T extends { id: RecordKey }>(name: string): Promise<JournalCollection<T>> {
    this.claim(name, 'journal');
    const collection = await JournalCollection.open<T>(this.journalOptions(name));
    this.closers.push(() => collection.close());
    return collection;
  }

  async openDocument<T extends object>(
    name: string,
    defaults: T,
    migrations: readonly DocumentMigration[] = [],
  ): Promise<Document<T>> {
    this.claim(name, 'json');
    const document = await openDocument({
      path: join(this.dataDir, `${name}.json`),
      defaults,
      migrations,
      clock: this.clock,
      logger: this.logger.child(name),
      fs: this.fs,
    });
    this.closers.push(() => document.flushed());
    return document;
  }

  async checkWritable(): Promise<boolean> {
    if (this.closed) return false;
    const probe = join(this.dataDir, '.write-probe');
    try {
      await writeFileAtomically(this.fs, probe, [String(this.clock.now())]);
      await this.fs.unlink(probe);
      return true;
    } catch (error) {
      this.logger.warn('data directory is not writable', { dataDir: this.dataDir, error });
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await closeAll(this.closers, this.logger);
    await this.lock.release();
  }

  private claim(name: string, extension: string): void {
    if (this.closed) throw new GatewayError(ErrorCode.StoreClosed, 'storage is closed');
    if (!namePattern.test(name)) {
      throw new GatewayError(ErrorCode.ValidationFailed, `invalid store name "${name}"`, { field: 'name' });
    }
    const file = `${name}.${extension}`;
    if (this.openNames.has(file)) {
      throw new GatewayError(ErrorCode.Conflict, `${file} is already open`, { field: 'name' });
    }
    this.openNames.add(file);
  }
}

/** Closes in reverse order of opening; one failure does not keep the others open. */
async function closeAll(closers: (() => Promise<void>)[], logger: Logger): Promise<void> {
  for (const close of closers.splice(0).reverse()) {
    try {
      await close();
    } catch (error) {
      logger.error('closing a store failed', { error });
    }
  }
}
