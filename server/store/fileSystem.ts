import * as fsPromises from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The slice of `node:fs/promises` the store uses. Injected so tests can count `datasync` calls
 * (group commit) or make a write fail (disk full) without mocking modules.
 */
export type StoreFileSystem = Pick<
  typeof fsPromises,
  'open' | 'readFile' | 'rename' | 'unlink' | 'mkdir' | 'chmod' | 'stat'
>;

export const nodeFileSystem: StoreFileSystem = fsPromises;

/** Owner read/write only: messages, tokens and secrets live here (docs/decisions.md#security-defaults). */
export const privateFileMode = 0o600;
export const privateDirMode = 0o700;

/**
 * Makes a rename or a file creation in `path`'s directory durable: without this, a power cut
 * right after `rename` may bring back the old directory entry (ext4, XFS). Windows cannot open a
 * directory for sync and its NTFS journal orders the metadata anyway, so it is skipped there.
 */
export async function syncDirectoryOf(fs: StoreFileSystem, path: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.open(dirname(path), 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes `chunks` to `path` so that a reader after any crash sees either the old file or the
 * complete new one: temp file (0600), fsync, rename over, fsync the directory.
 */
export async function writeFileAtomically(
  fs: StoreFileSystem,
  path: string,
  chunks: Iterable<string>,
): Promise<number> {
  const tempPath = temporaryPathFor(path);
  const written = await writeSyncedFile(fs, tempPath, chunks);
  try {
    await fs.rename(tempPath, path);
  } catch (error) {
    await fs.unlink(tempPath).catch(ignoreMissing);
    throw error;
  }
  await syncDirectoryOf(fs, path);
  return written;
}

export function temporaryPathFor(path: string): string {
  return `${path}.tmp`;
}

/**
 * Creates `path` afresh (0600) with `chunks` and fsyncs it; removes it again on failure. The
 * first half of an atomic replace: the caller renames it over the target.
 */
async function writeSyncedFile(fs: StoreFileSystem, path: string, chunks: Iterable<string>): Promise<number> {
  // A file left by a crash may carry another mode: start from nothing.
  await fs.unlink(path).catch(ignoreMissing);
  let written = 0;
  try {
    const handle = await fs.open(path, 'wx', privateFileMode);
    try {
      for (const chunk of chunks) {
        const buffer = Buffer.from(chunk, 'utf8');
        await writeFully(handle, buffer);
        written += buffer.length;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await fs.unlink(path).catch(ignoreMissing);
    throw error;
  }
  return written;
}

/** `write` may write less than asked (signal, quota): loop until every byte is out. */
export async function writeFully(handle: fsPromises.FileHandle, buffer: Buffer): Promise<void> {
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
    offset += bytesWritten;
  }
}

export function isMissingFileError(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

function ignoreMissing(error: unknown): void {
  if (!isMissingFileError(error)) throw error;
}
