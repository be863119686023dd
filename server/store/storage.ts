import { join } from 'node:path';
import type { Clock } from '../clock/clock.js';
import type { PendingPartsStore } from '../contract/domain/incoming.js';
import { describeError, ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { backupDatabase } from './backup.js';
import { type DataDirLock, lockDataDir } from './dataDirLock.js';
import { type Document, type DocumentMigration, openDocument } from './documentStore.js';
import { type EventCounts, SqliteEventCounts } from './eventCounts.js';
import { nodeFileSystem, privateDirMode, type StoreFileSystem, writeFileAtomically } from './fileSystem.js';
import { SqliteInboxRepository } from './inboxRepository.js';
import { migrateJournals } from './journalMigration.js';
import { KeyedCollection } from './keyedCollection.js';
import { SqliteLogRepository } from './logRepository.js';
import { SqliteMessageRepository } from './messageRepository.js';
import { backupBeforeMigration, type SchemaUpgrade } from './migrationBackup.js';
import { SqliteModemRecords } from './modemRecords.js';
import { pendingPartsIn } from './pendingPartsTable.js';
import type { InboxRepository, LogRepository, MessageRepository } from './repositories.js';
import { databaseFileName, type GatewayDatabase, openDatabase } from './sqlite/database.js';
import type { GroupCommit } from './sqlite/groupCommit.js';
import { PageReader } from './sqlite/pageReader.js';
import type { Database } from './sqlite/sqlite.js';

export interface StorageOptions {
  dataDir: string;
  clock: Clock;
  logger: Logger;
  /** File system for the lock, the lowdb documents and the write probe. */
  fs?: StoreFileSystem;
  /** Cap on stored log entries (see `SqliteLogRepository`). */
  maxLogEntries?: number;
  /** How long the page-reader and checkpoint threads stay after their last request. */
  threadIdleMs?: number;
  /**
   * Called when the schema is about to be migrated, after the database was backed up: a long
   * migration holds the start, and the desktop app says why.
   */
  onSchemaUpgrade?: (upgrade: SchemaUpgrade) => void;
}

export interface Storage {
  readonly dataDir: string;
  readonly messages: MessageRepository;
  readonly inbox: InboxRepository;
  readonly logs: LogRepository;
  /** Parts of multipart messages still waiting for the rest. */
  readonly pendingParts: PendingPartsStore;
  /** Sent, delivered, failed and received per quarter hour, for the daily chart. */
  readonly counts: EventCounts;
  /** Missed calls, signal samples and counts per modem. */
  readonly modemRecords: SqliteModemRecords;
  /**
   * The database connection and its group commit, for feature repositories with their own tables
   * (`server/services/desk/`): their writes join the same batches, so a write spanning them and the
   * messages (a campaign and its messages) is durable in one commit or not at all.
   */
  readonly sqlite: { readonly db: Database; readonly commits: GroupCommit };
  /** A durable keyed collection in the database (the webhook outbox). Open each name once. */
  openCollection<T extends { id: string }>(name: string): KeyedCollection<T>;
  /** A small lowdb document `<name>.json` (settings, webhooks, tokens, devices). */
  openDocument<T extends object>(
    name: string,
    defaults: T,
    migrations?: readonly DocumentMigration[],
  ): Promise<Document<T>>;
  /** Writes a consistent copy of the database to `path` while the gateway runs. */
  backup(path: string): Promise<void>;
  /** The size of `gateway.db` in bytes: its pages, free ones included (the file on disk). */
  databaseBytes(): number;
  /** For the health check: can the data directory take a durable write right now? */
  checkWritable(): Promise<boolean>;
  /** Commits pending writes, closes the database and releases the directory lock. */
  close(): Promise<void>;
}

/** Collection names stay to a safe alphabet, like the documents' file names. */
const namePattern = /^[a-z0-9][a-z0-9-]*$/;
const pendingPartsCollection = 'pending-parts';

/**
 * Opens the data directory: creates it (0700), takes the lock, opens `gateway.db` (migrating
 * the journals of an older version into it on first start). Everything opened through the
 * returned object is closed by `close()`.
 */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const { dataDir } = options;
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
  await makeDirectoryPrivate(fs, dataDir, logger);
  const lock = await lockDataDir(fs, dataDir, logger);
  let database: GatewayDatabase | undefined;
  try {
    const databasePath = join(dataDir, databaseFileName);
    const upgrade = await backupBeforeMigration(databasePath, dataDir, logger, new Date(options.clock.now()));
    if (upgrade) {
      logger.info('database backed up before its schema is migrated', { ...upgrade });
      options.onSchemaUpgrade?.(upgrade);
      // The migration holds the event loop: let the message about it leave first.
      await new Promise((resolve) => setImmediate(resolve));
    }
    database = openDatabase(databasePath, logger, options.threadIdleMs);
    await migrateJournals({
      dataDir,
      db: database.db,
      clock: options.clock,
      logger,
      pendingPartsCollection,
    });
    return new DataDirStorage(database, lock, options, logger, fs);
  } catch (error) {
    await database?.close().catch(() => undefined);
    await lock.release().catch(() => undefined);
    throw error;
  }
}

/**
 * `mkdir`'s mode applies only to a directory it creates: one that already existed (made by hand,
 * by an installer, by an older version) kept 0755, so every local user could read the messages.
 * Checked at every start; the change is logged. Windows has no POSIX modes (ACLs instead).
 */
async function makeDirectoryPrivate(fs: StoreFileSystem, dataDir: string, logger: Logger): Promise<void> {
  if (process.platform === 'win32') return;
  const mode = (await fs.stat(dataDir)).mode & 0o777;
  if (mode === privateDirMode) return;
  const octal = (value: number) => value.toString(8).padStart(4, '0');
  try {
    await fs.chmod(dataDir, privateDirMode);
    logger.warn(`data directory was ${octal(mode)}; made it ${octal(privateDirMode)} (owner only)`, {
      dataDir,
    });
  } catch (error) {
    logger.warn(`data directory is ${octal(mode)} and could not be made ${octal(privateDirMode)}`, {
      dataDir,
      error: describeError(error),
    });
  }
}

class DataDirStorage implements Storage {
  readonly dataDir: string;
  readonly messages: SqliteMessageRepository;
  readonly inbox: SqliteInboxRepository;
  readonly logs: SqliteLogRepository;
  readonly pendingParts: PendingPartsStore;
  readonly counts: SqliteEventCounts;
  readonly modemRecords: SqliteModemRecords;
  readonly sqlite: { readonly db: Database; readonly commits: GroupCommit };
  private readonly openNames = new Set<string>([pendingPartsCollection]);
  private readonly documentsFlushed: (() => Promise<void>)[] = [];
  private readonly pages: PageReader;
  private closed = false;

  constructor(
    private readonly database: GatewayDatabase,
    private readonly lock: DataDirLock,
    private readonly options: StorageOptions,
    private readonly logger: Logger,
    private readonly fs: StoreFileSystem,
  ) {
    const { db, commits } = database;
    this.dataDir = options.dataDir;
    this.pages = new PageReader(database.path, commits, logger.child('pages'), options.threadIdleMs);
    this.messages = new SqliteMessageRepository(db, commits, this.pages);
    this.inbox = new SqliteInboxRepository(db, commits, this.pages);
    this.logs = new SqliteLogRepository(db, commits, {
      logger: logger.child('logs'),
      ...(options.maxLogEntries === undefined ? {} : { maxEntries: options.maxLogEntries }),
    });
    this.pendingParts = pendingPartsIn(new KeyedCollection(db, commits, pendingPartsCollection));
    this.counts = new SqliteEventCounts(db);
    this.modemRecords = new SqliteModemRecords(db, commits);
    this.sqlite = { db, commits };
  }

  openCollection<T extends { id: string }>(name: string): KeyedCollection<T> {
    this.claim(name);
    return new KeyedCollection<T>(this.database.db, this.database.commits, name);
  }

  async openDocument<T extends object>(
    name: string,
    defaults: T,
    migrations: readonly DocumentMigration[] = [],
  ): Promise<Document<T>> {
    this.claim(name);
    const document = await openDocument({
      path: join(this.dataDir, `${name}.json`),
      defaults,
      migrations,
      clock: this.options.clock,
      logger: this.logger.child(name),
      fs: this.fs,
    });
    this.documentsFlushed.push(() => document.flushed());
    return document;
  }

  backup(path: string): Promise<void> {
    if (this.closed) return Promise.reject(new GatewayError(ErrorCode.StoreClosed, 'storage is closed'));
    return backupDatabase(this.database.path, path, this.logger);
  }

  databaseBytes(): number {
    const { db } = this.database;
    const pages = db.pragma('page_count', { simple: true }) as number;
    return pages * (db.pragma('page_size', { simple: true }) as number);
  }

  async checkWritable(): Promise<boolean> {
    if (this.closed) return false;
    const probe = join(this.dataDir, '.write-probe');
    try {
      await writeFileAtomically(this.fs, probe, [String(this.options.clock.now())]);
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
    for (const flushed of this.documentsFlushed.splice(0)) {
      await flushed().catch((error: unknown) =>
        this.logger.error('a document could not be written', { error }),
      );
    }
    // The reader's connection goes first: the last one closed checkpoints and removes the WAL.
    await this.pages.close();
    try {
      await this.database.close();
    } catch (error) {
      this.logger.error('closing the database failed', { error });
    }
    await this.lock.release();
  }

  private claim(name: string): void {
    if (this.closed) throw new GatewayError(ErrorCode.StoreClosed, 'storage is closed');
    if (!namePattern.test(name)) {
      throw new GatewayError(ErrorCode.ValidationFailed, `invalid store name "${name}"`, { field: 'name' });
    }
    if (this.openNames.has(name)) {
      throw new GatewayError(ErrorCode.Conflict, `${name} is already open`, { field: 'name' });
    }
    this.openNames.add(name);
  }
}
