import { Low } from 'lowdb';
import type { Clock } from '../clock/clock.js';
import { describeError, ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import {
  isMissingFileError,
  nodeFileSystem,
  privateFileMode,
  type StoreFileSystem,
  writeFileAtomically,
} from './fileSystem.js';

/** Upgrades a document by one version: `migrations[n]` turns version n into version n + 1. */
export type DocumentMigration = (data: Record<string, unknown>) => Record<string, unknown>;

export interface Document<T> {
  readonly data: T;
  /** Applies `mutator` to `data` in place at once; resolves when the document is on disk. */
  update(mutator: (data: T) => void): Promise<void>;
  /** Resolves once every write started so far is on disk (for shutdown). */
  flushed(): Promise<void>;
  /** Set when the file was unreadable at open: it was moved to `backupPath`, defaults loaded. */
  readonly recovered?: { backupPath: string; reason: string };
}

export interface OpenDocumentOptions<T> {
  path: string;
  defaults: T;
  migrations?: readonly DocumentMigration[];
  clock: Clock;
  logger: Logger;
  fs?: StoreFileSystem;
}

/**
 * A small JSON document (settings, webhooks, tokens, devices) held by lowdb. lowdb's own
 * `JSONFile` writes through steno, which neither fsyncs nor sets a mode, so a power cut may
 * leave an empty file and secrets would be created 0644; `DurableJsonFile` is a lowdb adapter
 * that writes temp (0600) → fsync → rename → fsync dir instead.
 *
 * The stored object carries `version`; older files are migrated forward step by step and written
 * back. A file from a newer gateway is refused (StoreNewerThanBuild) rather than silently downgraded.
 */
export async function openDocument<T extends object>(options: OpenDocumentOptions<T>): Promise<Document<T>> {
  const { path, logger } = options;
  const migrations = options.migrations ?? [];
  const fs = options.fs ?? nodeFileSystem;
  const adapter = new DurableJsonFile<Record<string, unknown>>(path, fs);
  let stored: Record<string, unknown> | null;
  let recovered: Document<T>['recovered'];
  try {
    stored = await adapter.read();
  } catch (error) {
    if (!(error instanceof GatewayError) || error.code !== ErrorCode.StoreCorrupt) throw error;
    const backupPath = `${path}.corrupt-${new Date(options.clock.now()).toISOString().replace(/[:.]/g, '-')}`;
    await fs.rename(path, backupPath);
    recovered = { backupPath, reason: error.message };
    logger.error('document was unreadable: moved it aside and started from defaults', {
      path,
      backupPath,
      reason: error.message,
    });
    stored = null;
  }

  const target = migrations.length;
  let data: Record<string, unknown>;
  let dirty: boolean;
  if (stored === null) {
    data = { ...(structuredClone(options.defaults) as Record<string, unknown>), version: target };
    dirty = true;
  } else {
    const version = stored.version ?? 0;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
      throw new GatewayError(ErrorCode.StoreCorrupt, `${path}: "version" is not a version number`);
    }
    if (version > target) {
      throw new GatewayError(
        ErrorCode.StoreNewerThanBuild,
        `${path} is version ${version}, newer than this gateway understands (${target})`,
      );
    }
    if (version < target) {
      // Kept until a later migration: a faulty migration must not cost the user their settings.
      await writeFileAtomically(fs, `${path}.v${version}.backup`, [JSON.stringify(stored, null, 2)]);
    }
    data = stored;
    for (let step = version; step < target; step++) {
      const migrate = migrations[step] as DocumentMigration;
      const migrated: unknown = migrate(data);
      if (typeof migrated !== 'object' || migrated === null || Array.isArray(migrated)) {
        throw new GatewayError(
          ErrorCode.StoreCorrupt,
          `${path}: migration ${step} → ${step + 1} returned no object`,
        );
      }
      data = { ...migrated, version: step + 1 };
    }
    if (version < target) logger.info('document migrated', { path, from: version, to: target });
    dirty = version < target;
    // A file copied in by hand (or by an older build) may be readable by others.
    await fs.chmod(path, privateFileMode);
  }

  const low = new Low<Record<string, unknown>>(adapter, data);
  if (dirty) await low.write();
  return {
    get data() {
      return low.data as T;
    },
    update: (mutator) => low.update((current) => mutator(current as T)),
    flushed: () => adapter.flushed(),
    ...(recovered ? { recovered } : {}),
  };
}

/**
 * lowdb adapter (the `Adapter<T>` shape: `read`, `write`). Writes never overlap: a write asked
 * for while one runs waits for it and then writes the newest data once (the same coalescing
 * steno does), so every caller's change is on disk when its promise resolves.
 */
class DurableJsonFile<T> {
  private writing: Promise<void> | undefined;
  private queued: { data: T; promise: Promise<void> } | undefined;

  constructor(
    private readonly path: string,
    private readonly fs: StoreFileSystem,
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await this.fs.readFile(this.path, 'utf8');
    } catch (error) {
      if (isMissingFileError(error)) return null;
      throw new GatewayError(ErrorCode.StoreIo, `cannot read ${this.path}`, { cause: error });
    }
    if (text.trim() === '') throw new GatewayError(ErrorCode.StoreCorrupt, `${this.path} is empty`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new GatewayError(
        ErrorCode.StoreCorrupt,
        `${this.path} is not valid JSON: ${describeError(error)}`,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new GatewayError(ErrorCode.StoreCorrupt, `${this.path} does not hold a JSON object`);
    }
    return parsed as T;
  }

  write(data: T): Promise<void> {
    // Checked first: until the queued write has started, `writing` may already be cleared.
    if (this.queued) {
      this.queued.data = data;
      return this.queued.promise;
    }
    const running = this.writing;
    if (!running) return this.start(data);
    const queued: { data: T; promise: Promise<void> } = { data, promise: Promise.resolve() };
    queued.promise = running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start(queued.data);
      });
    this.queued = queued;
    return queued.promise;
  }

  async flushed(): Promise<void> {
    while (this.writing || this.queued) {
      await (this.queued?.promise ?? this.writing)?.catch(() => undefined);
    }
  }

  private start(data: T): Promise<void> {
    // Serialised now, when the write really starts: it carries every change made so far.
    const text = `${JSON.stringify(data, null, 2)}\n`;
    const write = writeFileAtomically(this.fs, this.path, [text]).then(
      () => undefined,
      (error: unknown) => {
        throw new GatewayError(ErrorCode.StoreIo, `cannot write ${this.path}`, { cause: error });
      },
    );
    const tracked = write.finally(() => {
      if (this.writing === tracked) this.writing = undefined;
    });
    tracked.catch(() => undefined);
    this.writing = tracked;
    return write;
  }
}
