import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { PendingGroup, PendingPartsStore } from './reassembly.js';

/**
 * Pending multipart parts in one small JSON file (a handful of groups at most, so a full
 * rewrite is cheap). Written atomically: temp file, fsync, rename, fsync of the folder, so a
 * power cut leaves either the old or the new snapshot, never a torn one.
 */
interface PendingPartsFileContent {
  version: 1;
  groups: PendingGroup[];
}

export function createPendingPartsFile(path: string): PendingPartsStore {
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw new GatewayError(ErrorCode.StoreIo, `cannot read ${path}`, { cause: error });
      }
      let content: unknown;
      try {
        content = JSON.parse(text);
      } catch (error) {
        throw new GatewayError(ErrorCode.StoreCorrupt, `${path} is not valid JSON`, { cause: error });
      }
      if (!isContent(content)) {
        throw new GatewayError(ErrorCode.StoreCorrupt, `${path} does not hold pending message parts`);
      }
      return content.groups;
    },

    async save(groups) {
      const content: PendingPartsFileContent = { version: 1, groups };
      const temporary = `${path}.tmp`;
      try {
        await mkdir(dirname(path), { recursive: true });
        const file = await open(temporary, 'w', 0o600);
        try {
          await file.writeFile(JSON.stringify(content));
          await file.sync();
        } finally {
          await file.close();
        }
        await rename(temporary, path);
        await syncFolder(dirname(path));
      } catch (error) {
        throw new GatewayError(ErrorCode.StoreIo, `cannot write ${path}`, { cause: error });
      }
    },
  };
}

async function syncFolder(folder: string): Promise<void> {
  // Makes the rename itself durable. Windows cannot open a folder for fsync: skip there.
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isContent(value: unknown): value is PendingPartsFileContent {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { version?: unknown; groups?: unknown };
  return (
    candidate.version === 1 &&
    Array.isArray(candidate.groups) &&
    candidate.groups.every(
      (group: unknown) =>
        typeof group === 'object' &&
        group !== null &&
        typeof (group as PendingGroup).key === 'string' &&
        Array.isArray((group as PendingGroup).parts),
    )
  );
}
