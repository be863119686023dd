import { appendFile, mkdtemp, readFile, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getMessage, postMessage } from '../../bench/support/gatewayApi.js';
import { type GatewayProcess, startGatewayProcess } from '../../bench/support/gatewayProcess.js';
import { scaled } from './support/scale.js';
import { readStoredMessages } from './support/storeSnapshot.js';

const messagesBefore = scaled(200, 5_000);

/**
 * A power cut during a group commit leaves the journal's last line half written (or, on file
 * systems that extend the size first, as zeros). The gateway must notice on the next start, drop
 * only that tail, keep everything before it, and go on appending to a clean file.
 */
describe('a torn write at the end of the message journal', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function fillAndStop(): Promise<{ dataDir: string; ids: string[] }> {
    const root = await mkdtemp(join(tmpdir(), 'sms-faults-torn-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const dataDir = join(root, 'data');
    // No modem: every message stays Pending, so its insert is the journal's last word on it.
    const gateway = await start(dataDir);
    const ids: string[] = [];
    for (let index = 0; index < messagesBefore; index++) {
      const posted = await postMessage(gateway.url, `before the power cut ${index}`);
      expect(posted.status).toBe(202);
      if (posted.id !== undefined) ids.push(posted.id);
    }
    await gateway.stop();
    return { dataDir, ids };
  }

  function start(dataDir: string): Promise<GatewayProcess> {
    return startGatewayProcess({ dataDir, modems: [join(dataDir, '..', 'no-modem-here')] });
  }

  async function expectRecovered(dataDir: string, kept: readonly string[], lost: readonly string[]) {
    const gateway = await start(dataDir);
    cleanups.push(() => gateway.stop());
    for (const id of kept)
      expect((await getMessage(gateway.url, id))?.state, `message ${id}`).toBe('Pending');
    for (const id of lost) expect(await getMessage(gateway.url, id)).toBeUndefined();
    const after = await postMessage(gateway.url, 'after the power cut');
    expect(after.status).toBe(202);
    await gateway.stop();
    // The tail is gone from disk too: a second reading finds every record and nothing torn.
    const stored = await readStoredMessages(dataDir);
    expect(stored.size).toBe(kept.length + 1);
    expect(gateway.output()).toMatch(/torn/);
  }

  it(
    'drops a last line cut in the middle and keeps every earlier message',
    async () => {
      const { dataDir, ids } = await fillAndStop();
      const journal = join(dataDir, 'messages.journal');
      const text = await readFile(journal);
      const lastLineStart = text.lastIndexOf(0x0a, text.length - 2) + 1;
      await truncate(journal, lastLineStart + Math.floor((text.length - lastLineStart) / 2));
      await expectRecovered(dataDir, ids.slice(0, -1), ids.slice(-1));
    },
    scaled(60_000, 300_000),
  );

  it(
    'drops a tail of zeros left by a file system that grew the file before the data landed',
    async () => {
      const { dataDir, ids } = await fillAndStop();
      await appendFile(join(dataDir, 'messages.journal'), Buffer.alloc(512));
      await expectRecovered(dataDir, ids, []);
    },
    scaled(60_000, 300_000),
  );
});
