import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import {
  type GatewayHarness,
  harnessPassword,
  harnessUser,
  startGatewayHarness,
} from '../support/gatewayHarness.js';

const basic = `Basic ${Buffer.from(`${harnessUser}:${harnessPassword}`).toString('base64')}`;
/** The first 16 bytes of every SQLite database file (https://sqlite.org/fileformat2.html). */
const sqliteHeader = Buffer.from('SQLite format 3\0');

/** Ids of the messages stored in a database file. */
function messageIdsIn(path: string): string[] {
  const db = openSqlite(path, { readOnly: true });
  try {
    return (db.prepare('SELECT id FROM messages').all() as { id: string }[]).map((row) => row.id);
  } finally {
    db.close();
  }
}

describe('backups of a running gateway', () => {
  let harness: GatewayHarness;
  let folder: string;
  const posted: string[] = [];

  beforeAll(async () => {
    harness = await startGatewayHarness();
    folder = await mkdtemp(join(tmpdir(), 'smsgw-backup-test-'));
    for (let n = 0; n < 3; n++) {
      const response = await harness.api.post<{ id: string }>('/messages', {
        textMessage: { text: `kept in the backup ${n}` },
        phoneNumbers: ['+15550001111'],
      });
      expect(response.status).toBe(202);
      posted.push(response.body.id);
    }
  });

  afterAll(async () => {
    await harness.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('downloads the database with every accepted message from POST /gateway/v1/backup', async () => {
    const response = await fetch(`${harness.url}/gateway/v1/backup`, {
      method: 'POST',
      headers: { authorization: basic },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.sqlite3');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="sms-gateway-backup-.*\.db"$/,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 16)).toEqual(sqliteHeader);
    const file = join(folder, 'downloaded.db');
    await writeFile(file, bytes);
    expect(messageIdsIn(file)).toEqual(expect.arrayContaining(posted));
  });

  it('tells the database size on disk and what it holds (GET /gateway/v1/database)', async () => {
    const response = await harness.api.get<{ bytes: number; messages: number; incoming: number }>(
      '/gateway/v1/database',
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ bytes: expect.any(Number), messages: posted.length, incoming: 0 });
    const { size } = await stat(join(harness.dataDir, 'gateway.db'));
    // The WAL may hold pages the file does not have yet, never the other way round.
    expect(response.body.bytes).toBeGreaterThanOrEqual(size);
  });

  it('refuses settings:write with 403, and answers backup:create (issue 36, item 9)', async () => {
    const statusWith = async (scopes: string[]) => {
      const token = await harness.api.post<{ access_token: string }>('/auth/token', { scopes });
      expect(token.status).toBe(201);
      const response = await fetch(`${harness.url}/gateway/v1/backup`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.body.access_token}` },
      });
      await response.arrayBuffer();
      return response.status;
    };
    // The file holds every message, the inbox and the contacts: more than settings.
    expect(await statusWith(['messages:read'])).toBe(403);
    expect(await statusWith(['settings:read', 'settings:write'])).toBe(403);
    expect(await statusWith(['backup:create'])).toBe(200);
  });

  it('writes the same copy with the --backup command line action while the gateway runs', async () => {
    const target = join(folder, 'from-cli.db');
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'server/cli/main.ts', '--data-dir', harness.dataDir, '--backup', target],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect((await readFile(target)).subarray(0, 16)).toEqual(sqliteHeader);
    expect(messageIdsIn(target)).toEqual(expect.arrayContaining(posted));
  });

  it('exits 1 and says why when the data directory holds no database', async () => {
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'server/cli/main.ts',
        '--data-dir',
        join(folder, 'empty'),
        '--backup',
        join(folder, 'x.db'),
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Backup failed');
  });
});
