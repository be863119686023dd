import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { silentLogger } from '../../server/logging/logger.js';
import { keptSendsMs, type SendRecord, SqliteSendLog } from '../../server/store/sendLog.js';
import { openStorage, type Storage } from '../../server/store/storage.js';

const day = 86_400_000;
const start = Date.UTC(2026, 0, 1);
let storage: Storage | undefined;
let dir: string | undefined;

afterEach(async () => {
  await storage?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  storage = undefined;
  dir = undefined;
});

async function openLog(): Promise<SqliteSendLog> {
  dir = await mkdtemp(join(tmpdir(), 'smsgw-sends-'));
  storage = await openStorage({ dataDir: dir, clock: new ManualClock(start), logger: silentLogger });
  return new SqliteSendLog(storage.sqlite.db, storage.sqlite.commits);
}

const send = (at: number, recipient: string, appId: string): SendRecord => ({
  deviceId: 'modem-a',
  sim: 1,
  at,
  recipient,
  parts: 2,
  appId,
});

describe('the send log', () => {
  it('finds the app that last wrote to a number', async () => {
    const log = await openLog();
    await log.record([send(start, '+15550000001', 'shop'), send(start, '+15550000002', 'clinic')]);
    await log.record([send(start + 1000, '+15550000001', 'clinic')]);
    expect(log.lastAppTo('+15550000001', 0)).toBe('clinic');
    expect(log.lastAppTo('+15550000002', 0)).toBe('clinic');
    expect(log.lastAppTo('+15550000002', start + 1)).toBeUndefined();
    expect(log.lastAppTo('+15550000003', 0)).toBeUndefined();
  });

  it('tallies a SIM from an instant on, and forgets sends older than it keeps', async () => {
    const log = await openLog();
    await log.record([send(start, '+15550000001', 'shop'), send(start, '+15550000001', 'shop')]);
    expect(log.tallySince('modem-a', 1, start)).toEqual({
      messages: 2,
      parts: 4,
      recipients: ['+15550000001'],
    });
    expect(log.tallySince('modem-a', 2, start)).toEqual({ messages: 0, parts: 0, recipients: [] });
    await log.record([send(start + keptSendsMs + day, '+15550000002', 'shop')]);
    expect(log.tallySince('modem-a', 1, 0)).toEqual({ messages: 1, parts: 2, recipients: ['+15550000002'] });
  });
});
