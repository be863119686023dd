import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { silentLogger } from '../../server/logging/logger.js';
import { openPlanBook, type PlanBook, type PlanDocumentData } from '../../server/services/plans/planBook.js';
import type { SimPlanTerms } from '../../server/services/plans/simPlan.js';
import {
  createSimPlanUsage,
  type PlanNotice,
  type SimPlanUsage,
} from '../../server/services/plans/simPlanUsage.js';
import { SqliteSendLog } from '../../server/store/sendLog.js';
import { openStorage, type Storage } from '../../server/store/storage.js';

/** The use counts of SIM plans on the real store, with a ManualClock. */
const sim = { deviceId: 'modem-a', sim: 2 };
const terms: SimPlanTerms = {
  unit: 'messages',
  resetAt: '06:00',
  timeZone: 'Europe/Berlin',
  whenCapped: 'hold',
};
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openAt(dataDir: string, clock: ManualClock) {
  const storage: Storage = await openStorage({ dataDir, clock, logger: silentLogger });
  const book: PlanBook = openPlanBook(await storage.openDocument<PlanDocumentData>('sim-plans', {}));
  const notices: PlanNotice[] = [];
  const usage: SimPlanUsage = createSimPlanUsage({
    book,
    store: new SqliteSendLog(storage.sqlite.db, storage.sqlite.commits),
    clock,
    notify: (notice) => notices.push(notice),
    onWriteFailed: (error) => {
      throw error;
    },
  });
  const close = async () => {
    usage.stop();
    await storage.close();
  };
  return { storage, book, usage, notices, close };
}

async function freshDirectory(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'smsgw-plans-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('SIM plan use', () => {
  it('counts from the store after a restart, and starts again at the reset in the plan’s zone', async () => {
    // 2026-03-10 10:00 in Berlin (UTC+1): the day began at 06:00 Berlin, 05:00 UTC.
    const clock = new ManualClock(Date.UTC(2026, 2, 10, 9));
    const dir = await freshDirectory();
    const first = await openAt(dir, clock);
    await first.book.put(sim, { ...terms, perDay: 3, perMonth: 100 });
    first.usage.record(sim, { recipients: ['+15550000001', '+15550000002'], parts: 1, appId: 'default' });
    first.usage.record(sim, { recipients: ['+15550000003'], parts: 1, appId: 'default' });
    await first.close();

    const second = await openAt(dir, clock);
    cleanups.push(second.close);
    const blocking = second.usage.blockingCap(sim, () => ['+15550000009']);
    expect(blocking).toMatchObject({ used: 3, cap: { name: 'day', limit: 3 } });
    expect(blocking?.resetsAt).toBe(Date.UTC(2026, 2, 11, 5));
    // Another slot of the same modem has its own count.
    expect(second.usage.blockingCap({ deviceId: 'modem-a', sim: 1 }, () => ['+15550000009'])).toBeUndefined();

    await clock.advance(Date.UTC(2026, 2, 11, 5) - clock.now());
    expect(second.usage.blockingCap(sim, () => ['+15550000009'])).toBeUndefined();
    expect(second.usage.usage(sim).map((use) => [use.cap.name, use.used])).toEqual([
      ['day', 0],
      ['month', 3],
    ]);
  });

  it('caps distinct recipients but lets known ones through, and counts parts when told', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 10, 9));
    const opened = await openAt(await freshDirectory(), clock);
    cleanups.push(opened.close);
    await opened.book.put(sim, {
      ...terms,
      unit: 'parts',
      perWeek: 10,
      recipients: { limit: 2, period: 'month' },
    });
    opened.usage.record(sim, { recipients: ['+15550000001'], parts: 3, appId: 'default' });
    opened.usage.record(sim, { recipients: ['+15550000002'], parts: 3, appId: 'default' });
    expect(opened.usage.blockingCap(sim, () => ['+15550000001'])).toBeUndefined();
    expect(opened.usage.blockingCap(sim, () => ['+15550000003'])).toMatchObject({
      cap: { name: 'recipients' },
      used: 2,
    });
    expect(opened.usage.usage(sim).map((use) => [use.cap.name, use.used])).toEqual([
      ['week', 6],
      ['recipients', 2],
    ]);
    opened.usage.record(sim, { recipients: ['+15550000001'], parts: 3, appId: 'default' });
    expect(opened.usage.blockingCap(sim, () => ['+15550000001'])).toBeUndefined();
    opened.usage.record(sim, { recipients: ['+15550000001'], parts: 1, appId: 'default' });
    expect(opened.usage.blockingCap(sim, () => ['+15550000001'])).toMatchObject({
      cap: { name: 'week' },
      used: 10,
    });
    expect(opened.notices.map((notice) => [notice.use.cap.name, notice.level, notice.use.used])).toEqual([
      ['recipients', 100, 2],
      ['week', 80, 9],
      ['week', 100, 10],
    ]);
  });
});
