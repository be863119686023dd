import { appendFile, cp, mkdtemp, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getMessage, postMessage } from '../../bench/support/gatewayApi.js';
import { type GatewayProcess, startGatewayProcess } from '../../bench/support/gatewayProcess.js';
import { databaseFileName } from '../../server/store/sqlite/database.js';
import { scaled } from './support/scale.js';
import { readStoredMessages } from './support/storeSnapshot.js';
import { readWalLayout } from './support/walFile.js';

const messagesBefore = scaled(200, 5_000);

/**
 * A power cut during a group commit leaves the WAL's last transaction half written (or, on file
 * systems that extend the size first, followed by zeros). No 202 was sent for what that commit
 * held. On the next start SQLite must drop exactly that transaction (its frames fail the
 * checksum chain) and keep every earlier one; the gateway then goes on writing.
 */
describe('a torn write at the end of the write-ahead log', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function temporaryRoot(): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'sms-faults-torn-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    return root;
  }

  /** Posts one message at a time, then kills the gateway: the WAL keeps every commit. */
  async function fillAndKill(): Promise<{ dataDir: string; ids: string[] }> {
    const dataDir = join(await temporaryRoot(), 'data');
    // No modem: every message stays Pending, so its insert is the last word on it.
    const gateway = await start(dataDir);
    const ids: string[] = [];
    for (let index = 0; index < messagesBefore; index++) {
      const posted = await postMessage(gateway.url, `before the power cut ${index}`);
      expect(posted.status).toBe(202);
      if (posted.id !== undefined) ids.push(posted.id);
    }
    await gateway.kill('SIGKILL');
    return { dataDir, ids };
  }

  function start(dataDir: string): Promise<GatewayProcess> {
    return startGatewayProcess({ dataDir, modems: [join(dataDir, '..', 'no-modem-here')] });
  }

  /** Starts on the damaged directory, checks what it serves, writes one more, stops. */
  async function expectRecovered(dataDir: string, kept: readonly string[]): Promise<void> {
    const gateway = await start(dataDir);
    cleanups.push(() => gateway.stop());
    for (const id of kept)
      expect((await getMessage(gateway.url, id))?.state, `message ${id}`).toBe('Pending');
    const after = await postMessage(gateway.url, 'after the power cut');
    expect(after.status).toBe(202);
    await gateway.stop();
  }

  it(
    'drops a last transaction cut in the middle and keeps every earlier one',
    async () => {
      const { dataDir, ids } = await fillAndKill();
      const wal = join(dataDir, `${databaseFileName}-wal`);
      const { commitFrames, frameBytes } = await readWalLayout(wal);
      const last = commitFrames.at(-1);
      const previous = commitFrames.at(-2);
      if (last === undefined || previous === undefined)
        throw new Error('the WAL holds fewer than two commits');
      // The directory as it was before the last commit began: what the torn one must come back as.
      const before = join(await temporaryRoot(), 'data');
      await cp(dataDir, before, { recursive: true });
      await truncate(join(before, `${databaseFileName}-wal`), previous + frameBytes);
      await truncate(wal, last + Math.floor(frameBytes / 2));

      // Only the last commit can be lost; each POST was a commit of its own.
      await expectRecovered(dataDir, ids.slice(0, -1));
      const expected = await readStoredMessages(before);
      const stored = await readStoredMessages(dataDir);
      expect(stored.size).toBe(expected.size + 1);
      for (const [id, record] of expected) expect(stored.get(id)).toEqual(record);
    },
    scaled(60_000, 300_000),
  );

  it(
    'ignores a tail of zeros left by a file system that grew the file before the data landed',
    async () => {
      const { dataDir, ids } = await fillAndKill();
      const wal = join(dataDir, `${databaseFileName}-wal`);
      const { frameBytes } = await readWalLayout(wal);
      await appendFile(wal, Buffer.alloc(2 * frameBytes));
      await expectRecovered(dataDir, ids);
      expect((await readStoredMessages(dataDir)).size).toBe(ids.length + 1);
    },
    scaled(60_000, 300_000),
  );
});
