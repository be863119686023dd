import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseViewSchema } from '../../../contract/schemas/databaseViewSchema.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

export interface BackupRouteDependencies {
  /** Writes a consistent copy of the database to `path` (SQLite online backup). */
  backup(path: string): Promise<void>;
  /** Bytes of the database file. */
  databaseBytes(): number;
  /** Stored messages and received messages. */
  counts(): { messages: number; incoming: number };
  now(): number;
}

/**
 * POST /gateway/v1/backup: the database as a file download, taken while the gateway runs. The
 * copy is written to a private temporary folder first (the online backup needs a file), streamed
 * out, and removed once the response is done or cut off.
 */
export function registerBackupRoutes(api: ApiBuilder, deps: BackupRouteDependencies): void {
  api.route({
    method: 'get',
    path: '/gateway/v1/database',
    summary: 'The size of the message database and how many messages it holds',
    tag: 'Gateway extensions',
    access: { scope: 'settings:read' },
    responses: {
      200: { description: 'Size and counts', schema: databaseViewSchema },
      ...errorResponses(...authErrors),
    },
    handle: async () => ({ status: 200, body: { bytes: deps.databaseBytes(), ...deps.counts() } }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/backup',
    summary: 'Download a consistent copy of the message database (SQLite file), taken while running',
    tag: 'Gateway extensions',
    access: { scope: 'backup:create' },
    responses: {
      200: { description: 'The SQLite database file (application/vnd.sqlite3)' },
      ...errorResponses(...authErrors),
    },
    handle: async () => {
      const folder = await mkdtemp(join(tmpdir(), 'smsgw-backup-'));
      const file = join(folder, 'gateway.db');
      try {
        await deps.backup(file);
      } catch (error) {
        await rm(folder, { recursive: true, force: true });
        throw error;
      }
      const stream = createReadStream(file);
      stream.once('close', () => {
        rm(folder, { recursive: true, force: true }).catch(() => undefined);
      });
      const stamp = new Date(deps.now()).toISOString().slice(0, 19).replaceAll(':', '-');
      return {
        status: 200,
        body: stream,
        headers: {
          'Content-Type': 'application/vnd.sqlite3',
          'Content-Disposition': `attachment; filename="sms-gateway-backup-${stamp}.db"`,
        },
      };
    },
  });
}
