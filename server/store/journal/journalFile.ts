import type { FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import {
  isMissingFileError,
  nodeFileSystem,
  privateFileMode,
  type StoreFileSystem,
  syncDirectoryOf,
  temporaryPathFor,
  writeFully,
} from './fileSystem.js';

/**
 * An append-only file of JSON entries, one per line, each line `<crc32 as 8 hex> <json>\n`.
 *
 * Durability: `append` resolves only after its bytes are written and `fdatasync`ed. Appends made
 * in the same tick, or while a flush is running, form one batch: one `write`, one `fdatasync`
 * (group commit), which is what makes thousands of durable inserts per second possible.
 *
 * Crash safety: a power cut can leave the last batch half written (or as zeros, on file systems
 * that extend the size before the data lands). On open, complete lines are checked against their
 * checksum; bad lines after the last good one are the torn tail and are truncated away (they were
 * never acknowledged); a bad line followed by good ones is skipped, logged and reported through
 * `skippedLines` so the owner rewrites the file.
 */
export interface JournalFileOptions {
  path: string;
  logger: Logger;
  fs?: StoreFileSystem;
}

export interface JournalAppend {
  /** Size of the line on disk, for the owner's live/garbage accounting. */
  bytes: number;
  /** Resolves once the line is durable; rejects with GatewayError(StoreIo | StoreClosed). */
  durable: Promise<void>;
}

/** Called for every intact line while opening, in file order. */
export type JournalEntryVisitor = (entry: unknown, lineBytes: number) => void;

interface Batch {
  lines: string[];
  bytes: number;
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const newline = 0x0a;
const checksumLength = 8;
/** Compaction writes the snapshot in chunks of about this size, not as one huge string. */
const rewriteChunkBytes = 1 << 20;

export class JournalFile {
  private queue: Batch[] = [];
  private flushScheduled = false;
  private flushing: Promise<void> | undefined;
  private compaction: Promise<void> | undefined;
  /** While a compaction runs: lines flushed to the old file, to be carried into the new one. */
  private flushedDuringCompaction: string[] | undefined;
  /** Set for the compaction's cut-over: nothing may be written to the old file any more. */
  private flushesHeld = false;
  private closed = false;
  /** Set when the file could not be restored after a failed write: no append is safe anymore. */
  private broken: unknown;

  private constructor(
    readonly path: string,
    private handle: FileHandle,
    private fileBytes: number,
    /** Corrupt lines in the middle of the file that were skipped at open. */
    readonly skippedLines: number,
    private readonly fs: StoreFileSystem,
    private readonly logger: Logger,
  ) {}

  static async open(options: JournalFileOptions, visit: JournalEntryVisitor): Promise<JournalFile> {
    const fs = options.fs ?? nodeFileSystem;
    const { path, logger } = options;
    let handle: FileHandle;
    let created: boolean;
    try {
      created = await fs.stat(path).then(
        () => false,
        (error: unknown) => {
          if (isMissingFileError(error)) return true;
          throw error;
        },
      );
      // Read and append through one descriptor: reads are positioned, writes go to the end.
      handle = await fs.open(path, 'a+', privateFileMode);
    } catch (error) {
      throw storeIoError(`cannot open journal ${path}`, error);
    }
    let scan: ScanResult;
    try {
      scan = await scanJournal(handle, visit);
      // A file created by an older build (or restored from a backup) may be group-readable.
      await handle.chmod(privateFileMode);
      if (scan.goodBytes < scan.fileBytes) {
        await handle.truncate(scan.goodBytes);
        await handle.sync();
      }
      if (created) await syncDirectoryOf(fs, path);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw storeIoError(`cannot load journal ${path}`, error);
    }
    if (scan.goodBytes < scan.fileBytes) {
      logger.warn('journal had a torn or corrupt tail (interrupted write): truncated it', {
        path,
        truncatedBytes: scan.fileBytes - scan.goodBytes,
        keptBytes: scan.goodBytes,
      });
    }
    if (scan.skippedLines > 0) {
      logger.error('journal has corrupt lines between intact ones: skipped them', {
        path,
        skippedLines: scan.skippedLines,
      });
    }
    logger.debug('journal loaded', { path, entries: scan.entries, bytes: scan.goodBytes });
    return new JournalFile(path, handle, scan.goodBytes, scan.skippedLines, fs, logger);
  }

  /** Bytes in the file, counting appends not yet flushed. */
  get bytes(): number {
    let pending = 0;
    for (const batch of this.queue) pending += batch.bytes;
    return this.fileBytes + pending;
  }

  /**
   * Queues one entry, given as its JSON text (the caller usually needs that text itself, e.g. to
   * keep a compact copy). Throws at once when the journal is closed or broken.
   */
  append(json: string): JournalAppend {
    if (this.closed) throw new GatewayError(ErrorCode.StoreClosed, `journal ${this.path} is closed`);
    if (this.broken !== undefined) throw storeIoError(`journal ${this.path} failed earlier`, this.broken);
    const line = encodeLine(json);
    const bytes = Buffer.byteLength(line, 'utf8');
    const batch = this.openBatch();
    batch.lines.push(line);
    batch.bytes += bytes;
    this.scheduleFlush();
    return { bytes, durable: batch.promise };
  }

  /**
   * Replaces the file with the entries `snapshot` yields (compaction). The snapshot is taken
   * lazily while the new file is written, so it must be a live view of the owner's state with
   * every entry appended so far applied. Appends keep flowing to the old file meanwhile; at the
   * cut-over the lines they wrote are copied after the snapshot (last write wins, so a record
   * seen newer by the snapshot ends the same), then the new file is fsynced and renamed over.
   */
  rewrite(snapshot: () => Iterable<unknown>): Promise<void> {
    if (this.closed) {
      return Promise.reject(new GatewayError(ErrorCode.StoreClosed, `journal ${this.path} is closed`));
    }
    if (this.compaction) {
      return Promise.reject(
        new GatewayError(ErrorCode.InvalidState, `journal ${this.path} is already compacting`),
      );
    }
    const compaction = this.runCompaction(snapshot).finally(() => {
      this.compaction = undefined;
    });
    this.compaction = compaction;
    return compaction;
  }

  /** Waits for a running compaction and every queued append, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.compaction?.catch(() => undefined);
    while (this.flushing || this.flushScheduled) {
      await (this.flushing ?? new Promise((resolve) => setImmediate(resolve)));
    }
    await this.handle.close();
  }

  private openBatch(): Batch {
    const last = this.queue[this.queue.length - 1];
    if (last) return last;
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    // Nobody may await a batch whose every caller moved on (e.g. a log line): never unhandled.
    promise.catch(() => undefined);
    const batch: Batch = { lines: [], bytes: 0, promise, resolve, reject };
    this.queue.push(batch);
    return batch;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || this.flushing || this.flushesHeld) return;
    this.flushScheduled = true;
    // setImmediate, not a microtask: appends from every I/O callback of this loop turn join in.
    setImmediate(() => {
      this.flushScheduled = false;
      this.flushing = this.drain().finally(() => {
        this.flushing = undefined;
        if (this.queue.length > 0) this.scheduleFlush();
      });
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.flushesHeld) await this.flushQueue();
  }

  private async flushQueue(): Promise<void> {
    const batches = this.queue;
    this.queue = [];
    // Each batch was opened by a new append after the previous flush began: one write for all.
    const buffer = Buffer.from(batches.map((batch) => batch.lines.join('')).join(''), 'utf8');
    const before = this.fileBytes;
    try {
      if (this.broken !== undefined) throw this.broken;
      await writeFully(this.handle, buffer);
      await this.handle.datasync();
      this.fileBytes = before + buffer.length;
      for (const batch of batches) this.flushedDuringCompaction?.push(...batch.lines);
      for (const batch of batches) batch.resolve();
    } catch (error) {
      await this.restoreLength(before);
      const failure = storeIoError(`cannot write journal ${this.path}`, error);
      for (const batch of batches) batch.reject(failure);
    }
  }

  /**
   * After a failed write the file may end in a partial line; the next batch would be glued to it
   * and lost at the next open. Cut back to the last durable length, or refuse further appends.
   */
  private async restoreLength(length: number): Promise<void> {
    try {
      await this.handle.truncate(length);
      await this.handle.datasync();
    } catch (error) {
      this.broken = error;
      this.logger.error('journal cannot be restored after a failed write; appends refused until restart', {
        path: this.path,
        error,
      });
    }
  }

  private async runCompaction(snapshot: () => Iterable<unknown>): Promise<void> {
    if (this.broken !== undefined) throw storeIoError(`journal ${this.path} failed earlier`, this.broken);
    // Set before the first await: every flush completing from now on is carried over.
    this.flushedDuringCompaction = [];
    const tempPath = temporaryPathFor(this.path);
    let temp: FileHandle | undefined;
    let written = 0;
    try {
      await this.fs.unlink(tempPath).catch((error: unknown) => {
        if (!isMissingFileError(error)) throw error;
      });
      temp = await this.fs.open(tempPath, 'wx', privateFileMode);
      for (const chunk of chunkLines(snapshot())) {
        const buffer = Buffer.from(chunk, 'utf8');
        await writeFully(temp, buffer);
        written += buffer.length;
      }
      // Cut-over: let the flush in flight finish, hold the next ones until the swap.
      this.flushesHeld = true;
      await this.flushing;
      const carried = Buffer.from(this.flushedDuringCompaction.join(''), 'utf8');
      await writeFully(temp, carried);
      written += carried.length;
      await temp.sync();
      await temp.close();
      temp = undefined;
      await this.fs.rename(tempPath, this.path);
    } catch (error) {
      await temp?.close().catch(() => undefined);
      await this.fs.unlink(tempPath).catch(() => undefined);
      // The old file is still the journal, intact and up to date: carry on with it.
      this.endCompaction();
      throw storeIoError(`cannot compact journal ${this.path}`, error);
    }
    // From here the path names the new file: appends must go there, never to the old inode.
    const previous = this.handle;
    const bytesBefore = this.fileBytes;
    try {
      this.handle = await this.fs.open(this.path, 'a', privateFileMode);
      await syncDirectoryOf(this.fs, this.path);
    } catch (error) {
      this.broken = error;
      throw storeIoError(`cannot reopen journal ${this.path} after compaction`, error);
    } finally {
      await previous.close().catch(() => undefined);
      this.fileBytes = written;
      this.endCompaction();
    }
    this.logger.info('journal compacted', { path: this.path, bytesBefore, bytesAfter: written });
  }

  private endCompaction(): void {
    this.flushedDuringCompaction = undefined;
    this.flushesHeld = false;
    this.scheduleFlush();
  }
}

export function encodeLine(json: string): string {
  return `${crc32(json).toString(16).padStart(checksumLength, '0')} ${json}\n`;
}

interface ScanResult {
  /** Length of the prefix that ends with the last intact line. */
  goodBytes: number;
  /** Length of the file as found. */
  fileBytes: number;
  entries: number;
  skippedLines: number;
}

/** The file is read in windows of this size (grown for a longer line), never whole. */
const readWindowBytes = 4 << 20;
/** Intact lines are parsed together in batches of about this many bytes. */
const parseBatchBytes = 1 << 20;

/**
 * Reads the file window by window (a 50 MB journal never sits in memory at once) and checks
 * each line's checksum over its raw bytes. Intact lines are parsed in batches: the JSON of up to
 * ~1 MB of lines joined into one array text and one `JSON.parse`, which roughly halves the load
 * time of a 100,000-message journal against one string and one parse per line.
 */
async function scanJournal(handle: FileHandle, visit: JournalEntryVisitor): Promise<ScanResult> {
  const batch = new ParseBatch(visit);
  let window = Buffer.allocUnsafe(readWindowBytes);
  let windowStart = 0;
  let filled = 0;
  let goodBytes = 0;
  let skippedLines = 0;
  let badSinceGood = 0;
  for (;;) {
    if (filled === window.length) {
      const larger = Buffer.allocUnsafe(window.length * 2);
      window.copy(larger, 0, 0, filled);
      window = larger;
    }
    const { bytesRead } = await handle.read(window, filled, window.length - filled, windowStart + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
    const view = window.subarray(0, filled);
    let position = 0;
    for (;;) {
      const end = view.indexOf(newline, position);
      // No newline (yet): read on; at the end of the file, the last write stopped mid-line.
      if (end === -1) break;
      if (hasValidChecksum(view, position, end)) {
        batch.add(view, position + checksumLength + 1, end);
        skippedLines += badSinceGood;
        badSinceGood = 0;
        goodBytes = windowStart + end + 1;
      } else {
        badSinceGood++;
      }
      position = end + 1;
    }
    // The window is about to be overwritten: parse what it holds.
    batch.flush(view);
    window.copy(window, 0, position, filled);
    windowStart += position;
    filled -= position;
  }
  return {
    goodBytes,
    fileBytes: windowStart + filled,
    entries: batch.entries,
    skippedLines: skippedLines + batch.unparsable,
  };
}

/**
 * A batch that does not parse (a checksum-valid line that is not JSON: only a bug writes that)
 * is parsed again line by line, so only the bad line is lost.
 */
class ParseBatch {
  private starts: number[] = [];
  private ends: number[] = [];
  private bytes = 0;
  entries = 0;
  unparsable = 0;

  constructor(private readonly visit: JournalEntryVisitor) {}

  add(content: Buffer, jsonStart: number, end: number): void {
    this.starts.push(jsonStart);
    this.ends.push(end);
    this.bytes += end - jsonStart + 1;
    if (this.bytes >= parseBatchBytes) this.flush(content);
  }

  flush(content: Buffer): void {
    const count = this.starts.length;
    if (count === 0) return;
    const text = Buffer.allocUnsafe(this.bytes + 1);
    let length = 0;
    for (let index = 0; index < count; index++) {
      text[length++] = index === 0 ? 0x5b : 0x2c; // "[" then ","
      length += content.copy(text, length, this.starts[index], this.ends[index]);
    }
    text[length++] = 0x5d; // "]"
    let values: unknown[] | undefined;
    try {
      values = JSON.parse(text.toString('utf8', 0, length)) as unknown[];
    } catch {
      values = undefined;
    }
    for (let index = 0; index < count; index++) {
      const start = this.starts[index] as number;
      const end = this.ends[index] as number;
      // Line size on disk: checksum, space, JSON and newline.
      const lineBytes = end - start + checksumLength + 2;
      if (values && values.length === count) {
        this.visit(values[index], lineBytes);
        this.entries++;
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(content.toString('utf8', start, end));
      } catch {
        this.unparsable++;
        continue;
      }
      this.visit(value, lineBytes);
      this.entries++;
    }
    this.starts = [];
    this.ends = [];
    this.bytes = 0;
  }
}

function hasValidChecksum(content: Buffer, start: number, end: number): boolean {
  const jsonStart = start + checksumLength + 1;
  if (jsonStart > end || content[jsonStart - 1] !== 0x20) return false;
  const expected = parseHex32(content, start);
  return expected !== undefined && crc32(content.subarray(jsonStart, end)) === expected;
}

function parseHex32(content: Buffer, start: number): number | undefined {
  let value = 0;
  for (let index = start; index < start + checksumLength; index++) {
    const code = content[index] ?? 0;
    let digit: number;
    if (code >= 0x30 && code <= 0x39) digit = code - 0x30;
    else if (code >= 0x61 && code <= 0x66) digit = code - 0x57;
    else return undefined;
    value = value * 16 + digit;
  }
  return value;
}

function* chunkLines(entries: Iterable<unknown>): Generator<string> {
  let parts: string[] = [];
  let size = 0;
  for (const entry of entries) {
    const line = encodeLine(JSON.stringify(entry));
    parts.push(line);
    size += line.length;
    if (size >= rewriteChunkBytes) {
      yield parts.join('');
      parts = [];
      size = 0;
    }
  }
  if (parts.length > 0) yield parts.join('');
}

function storeIoError(message: string, cause: unknown): GatewayError {
  if (cause instanceof GatewayError) return cause;
  return new GatewayError(ErrorCode.StoreIo, message, { cause });
}
