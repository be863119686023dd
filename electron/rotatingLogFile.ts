import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface RotationOptions {
  /** A file grows to about this size before the next write starts a fresh one. */
  maxBytes: number;
  /** Older files kept beside the current one (`<name>.1.log` the newest of them). */
  keep: number;
}

export const defaultRotation: RotationOptions = { maxBytes: 5 * 1024 * 1024, keep: 4 };

/**
 * An append-only log file in the OS's log folder that starts a fresh file past a size and keeps
 * a few older ones, so months of running never fill the disk. Writes are synchronous: the last
 * lines before a crash are on disk when the process dies. A write that fails (disk full, the
 * folder gone) is dropped rather than thrown into the code that logged.
 */
export class RotatingLogFile {
  readonly path: string;
  private descriptor?: number;
  private size = 0;

  constructor(
    readonly directory: string,
    private readonly name: string,
    private readonly options: RotationOptions = defaultRotation,
  ) {
    this.path = join(directory, `${name}.log`);
  }

  write(text: string | Uint8Array): void {
    try {
      const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      const descriptor = this.open();
      if (this.size > 0 && this.size + bytes.length > this.options.maxBytes) {
        this.rotate();
        this.write(bytes);
        return;
      }
      writeSync(descriptor, bytes);
      this.size += bytes.length;
    } catch {
      this.close();
    }
  }

  /** The last `count` lines written, across the rotation: for the failure window. */
  lastLines(count: number): string[] {
    const lines: string[] = [];
    for (const file of [this.path, this.olderFile(1)]) {
      lines.unshift(...tailOf(file));
      if (lines.length >= count) break;
    }
    return lines.slice(-count);
  }

  close(): void {
    if (this.descriptor === undefined) return;
    try {
      closeSync(this.descriptor);
    } catch {
      // Already gone: nothing left to release.
    }
    this.descriptor = undefined;
  }

  private open(): number {
    if (this.descriptor !== undefined) return this.descriptor;
    mkdirSync(this.directory, { recursive: true });
    const descriptor = openSync(this.path, 'a', 0o600);
    this.descriptor = descriptor;
    this.size = fstatSync(descriptor).size;
    return descriptor;
  }

  private rotate(): void {
    this.close();
    rmSync(this.olderFile(this.options.keep), { force: true });
    for (let index = this.options.keep - 1; index >= 1; index--) {
      renameIfPresent(this.olderFile(index), this.olderFile(index + 1));
    }
    renameIfPresent(this.path, this.olderFile(1));
    this.size = 0;
  }

  private olderFile(index: number): string {
    return join(this.directory, `${this.name}.${index}.log`);
  }
}

const tailBytes = 16 * 1024;

/** The complete lines in the last few kilobytes of `file`; none when it does not exist. */
function tailOf(file: string): string[] {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, 'r');
    const size = fstatSync(descriptor).size;
    const start = Math.max(0, size - tailBytes);
    const buffer = Buffer.alloc(size - start);
    readSync(descriptor, buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split(/\r?\n/);
    // Reading from the middle of the file cuts its first line.
    if (start > 0) lines.shift();
    return lines.filter((line) => line.trim() !== '');
  } catch {
    return [];
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

function renameIfPresent(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
