import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { silentLogger } from '../../server/logging/logger.js';
import { dailyStats } from '../../server/services/stats/dailyStats.js';
import { openStorage, type Storage } from '../../server/store/storage.js';

const hour = 60 * 60_000;
const day = 24 * hour;
const opened: { storage: Storage; dir: string }[] = [];

afterEach(async () => {
  for (const { storage, dir } of opened.splice(0)) {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  }
});

function message(id: string, createdAt: number, states: MessageRecord['states']): MessageRecord {
  return {
    id,
    content: { kind: 'text', text: 'x' },
    recipients: [{ phoneNumber: '+15550000000', state: 'Sent' }],
    withDeliveryReport: false,
    priority: 0,
    isEncrypted: false,
    createdAt,
    sequence: 1,
    states,
    state: 'Sent',
  };
}

describe('daily statistics', () => {
  it('counts each message on the local day it first reached Sent or Delivered, or a recipient failed', async () => {
    const clock = new ManualClock(new Date(2026, 10, 22, 12, 0).getTime());
    const dir = await mkdtemp(join(tmpdir(), 'smsgw-stats-'));
    const storage = await openStorage({ dataDir: dir, clock, logger: silentLogger });
    opened.push({ storage, dir });
    const now = clock.now();
    // Created yesterday evening, delivered this morning: sent counts yesterday, delivered today.
    await storage.messages.insert(
      message('a', now - 16 * hour, {
        Pending: now - 16 * hour,
        Sent: now - 16 * hour,
        Delivered: now - 2 * hour,
      }),
    );
    await storage.messages.insert({
      ...message('b', now - 2 * day, { Pending: now - 2 * day, Failed: now - 2 * day }),
      recipients: [{ phoneNumber: '+15550000000', state: 'Failed', updatedAt: now - 2 * day }],
      state: 'Failed',
    });
    await storage.messages.insert(
      message('old', now - 40 * day, { Pending: now - 40 * day, Sent: now - 40 * day }),
    );
    await storage.inbox.insert({
      id: 'in-1',
      type: 'SMS',
      deviceId: 'm',
      simNumber: 1,
      sender: '+15551111111',
      content: 'hi',
      receivedAt: now - hour,
    });

    const stats = dailyStats(storage.counts, now, 3);
    expect(stats).toEqual([
      { date: '2026-11-20', sent: 0, delivered: 0, failed: 1, received: 0 },
      { date: '2026-11-21', sent: 1, delivered: 0, failed: 0, received: 0 },
      { date: '2026-11-22', sent: 0, delivered: 1, failed: 0, received: 1 },
    ]);
  });

  it('counts a state once when an update reaches it, and keeps the count after retention', async () => {
    const clock = new ManualClock(new Date(2026, 10, 22, 12, 0).getTime());
    const dir = await mkdtemp(join(tmpdir(), 'smsgw-stats-'));
    const storage = await openStorage({ dataDir: dir, clock, logger: silentLogger });
    opened.push({ storage, dir });
    const now = clock.now();
    const sent = message('a', now - 3 * hour, { Pending: now - 3 * hour, Sent: now - 3 * hour });
    await storage.messages.insert(sent);
    const delivered = {
      ...sent,
      states: { ...sent.states, Delivered: now - hour },
      state: 'Delivered' as const,
    };
    await storage.messages.update(delivered);
    // The same state written again (a repeated status report) is not counted twice.
    await storage.messages.update({ ...delivered });
    const today = { date: '2026-11-22', sent: 1, delivered: 1, failed: 0, received: 0 };
    expect(dailyStats(storage.counts, now, 1)).toEqual([today]);
    expect(await storage.messages.pruneOlderThan(now)).toBe(1);
    expect(dailyStats(storage.counts, now, 1)).toEqual([today]);
  });
});
