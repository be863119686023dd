import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { compareMessages, type ProcessingOrder } from '../../server/contract/domain/messageOrder.js';
import { SqliteMessageRepository } from '../../server/store/messageRepository.js';
import {
  message,
  openTestDatabase,
  rollBackSchema,
  type TestDatabase,
  temporaryDirectory,
} from './storeTestKit.js';

const start = Date.UTC(2026, 0, 1);

/** A seeded generator, so that a failing order names a reproducible queue. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * Queued messages of mixed priority (the signed byte's ends included), bulk sends whose
 * messages share a `batchSequence`, and sequences past 2^32, inserted out of order.
 */
function mixedQueue(count: number): MessageRecord[] {
  const random = seeded(7);
  const priorities = [-128, -1, 0, 0, 0, 5, 99, 100, 127];
  const records: MessageRecord[] = [];
  let sequence = 2 ** 33;
  while (records.length < count) {
    const batch = random() < 0.3 ? 1 + Math.floor(random() * 6) : 0;
    const batchSequence = sequence + 1;
    const priority = priorities[Math.floor(random() * priorities.length)] ?? 0;
    for (let index = 0; index < Math.max(batch, 1) && records.length < count; index++) {
      sequence += 1 + Math.floor(random() * 3);
      records.push(
        message({ id: `q${sequence}`, sequence, priority, ...(batch > 0 ? { batchSequence } : {}) }),
      );
    }
  }
  return records.sort(() => random() - 0.5);
}

describe('the waiting queue table', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  let repository: SqliteMessageRepository;

  function open(): void {
    database = openTestDatabase(dir.path);
    repository = new SqliteMessageRepository(database.db, database.commits, database.pages);
  }

  /** Every ready message in `order`, read `pageSize` at a time from behind the last key. */
  function readInPages(order: ProcessingOrder, now: number, pageSize: number): string[] {
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = repository.waiting(order, now, pageSize, after);
      ids.push(...page.map((entry) => entry.record.id));
      if (page.length < pageSize) return ids;
      after = page.at(-1)?.key;
    }
  }

  beforeEach(async () => {
    dir = await temporaryDirectory();
    open();
  });

  afterEach(async () => {
    await database.close();
    await dir.remove();
  });

  it.each(['FIFO', 'LIFO'] as const)(
    'pages through the queue in the %s order compareMessages gives',
    async (order) => {
      const queue = mixedQueue(600);
      for (const record of queue) await repository.insert(record);
      const expected = [...queue].sort((left, right) => compareMessages(order, left, right)).map((r) => r.id);
      expect(readInPages(order, start, 64)).toEqual(expected);
      expect(readInPages(order, start, 1_000)).toEqual(expected);
    },
  );

  it('offers only what is ready: a schedule reached, an expiry not passed', async () => {
    await repository.insert(message({ id: 'now', sequence: 1 }));
    await repository.insert(message({ id: 'later', sequence: 2, scheduleAt: start + 5_000 }));
    await repository.insert(message({ id: 'expiring', sequence: 3, validUntil: start + 3_000 }));
    const ready = (now: number) => repository.waiting('FIFO', now, 10).map((entry) => entry.record.id);
    expect(ready(start)).toEqual(['now', 'expiring']);
    expect(repository.waitingDeadlines(start)).toEqual({
      nextExpiry: start + 3_000,
      nextScheduled: start + 5_000,
    });
    expect(repository.expiredWaiting(start + 2_999)).toEqual([]);
    expect(repository.expiredWaiting(start + 3_000).map((record) => record.id)).toEqual(['expiring']);
    expect(ready(start + 5_000)).toEqual(['now', 'later']);
    expect(repository.waitingDeadlines(start + 5_000).nextScheduled).toBe(Number.POSITIVE_INFINITY);
  });

  it('follows every write: handed over, put back, edited while queued, failed', async () => {
    await repository.insert(message({ id: 'a', sequence: 1 }));
    await repository.insert(message({ id: 'b', sequence: 2 }));
    const a = repository.get('a') as MessageRecord;
    await repository.update({ ...a, state: 'Processed', deviceId: 'modem-1' });
    expect(repository.isPending('a')).toBe(false);
    expect(repository.countInState('Pending')).toBe(1);
    await repository.update({ ...(repository.get('a') as MessageRecord), state: 'Pending' });
    // Edited while queued: its new priority moves it ahead.
    await repository.update({ ...(repository.get('b') as MessageRecord), priority: 50 });
    expect(repository.waiting('FIFO', start, 10).map((entry) => entry.record.id)).toEqual(['b', 'a']);
    await repository.update({ ...(repository.get('b') as MessageRecord), state: 'Failed' });
    expect(repository.waiting('FIFO', start, 10).map((entry) => entry.record.id)).toEqual(['a']);
    expect(repository.countInState('Pending')).toBe(1);
  });

  it('files the queued messages of an older database when the step runs', async () => {
    await repository.insert(message({ id: 'queued', sequence: 1, priority: 3 }));
    await repository.insert(message({ id: 'sent', sequence: 2, state: 'Sent' }));
    rollBackSchema(database.db, 24);
    await database.close();
    open();
    expect(repository.waiting('LIFO', start, 10).map((entry) => entry.record.id)).toEqual(['queued']);
    expect(repository.countInState('Pending')).toBe(1);
  });
});
