import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageRecord, RecipientRecord } from '../../server/contract/domain/message.js';
import { SqliteEventCounts } from '../../server/store/eventCounts.js';
import { SqliteMessageRepository } from '../../server/store/messageRepository.js';
import {
  listedPage,
  message,
  openTestDatabase,
  rollBackSchema,
  type TestDatabase,
  temporaryDirectory,
} from './storeTestKit.js';

/**
 * A message to several numbers stays Sent when only some failed; the desk still finds and
 * counts it as failed (schema step 15, server/store/sqlite/recipientFailures.ts).
 */
const start = Date.UTC(2026, 0, 1);
const minute = 60_000;
const quarterHour = 15 * minute;

function recipient(phoneNumber: string, state: RecipientRecord['state'], updatedAt: number): RecipientRecord {
  return { phoneNumber, state, updatedAt };
}

/** Sent to two numbers at `at`; the first failed (opted out) at `at`, the other went out. */
function partlyFailed(id: string, at: number): MessageRecord {
  return message({
    id,
    deviceId: 'modem-a',
    createdAt: at,
    recipients: [recipient('+15550000001', 'Failed', at), recipient('+15550000002', 'Sent', at + minute)],
    state: 'Sent',
    states: { Pending: at, Processed: at, Sent: at + minute },
  });
}

function allFailed(id: string, at: number): MessageRecord {
  return message({
    id,
    createdAt: at,
    recipients: [recipient('+15550000003', 'Failed', at)],
    state: 'Failed',
    states: { Pending: at, Failed: at },
  });
}

function sentToOne(id: string, at: number): MessageRecord {
  return message({
    id,
    createdAt: at,
    recipients: [recipient('+15550000004', 'Sent', at)],
    state: 'Sent',
    states: { Pending: at, Sent: at },
  });
}

function openAt(path: string): { database: TestDatabase; repository: SqliteMessageRepository } {
  const database = openTestDatabase(path);
  return { database, repository: new SqliteMessageRepository(database.db, database.commits, database.pages) };
}

describe('messages with a failed recipient', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  let repository: SqliteMessageRepository;

  beforeEach(async () => {
    dir = await temporaryDirectory();
    ({ database, repository } = openAt(dir.path));
  });

  afterEach(async () => {
    await database.close();
    await dir.remove();
  });

  const listedIds = async (query: { anyRecipientFailed?: boolean; state?: 'Failed'; search?: string }) => {
    const page = await listedPage(repository, { limit: 10, offset: 0, ...query });
    return { total: page.total, ids: page.items.map((item) => item.id) };
  };

  /** The gateway's and modem-a's counts of failed messages, per quarter hour. */
  const failedCounts = () => ({
    gateway: new SqliteEventCounts(database.db)
      .since(start)
      .filter((count) => count.event === 'failed')
      .map(({ at, count }) => ({ at, count })),
    modem: database.db
      .prepare(
        `SELECT bucket AS at, count FROM device_event_counts
         WHERE device_id = 'modem-a' AND event = 'failed' ORDER BY bucket`,
      )
      .all(),
  });

  it('lists a Sent message whose other recipient went out among the failed, beside the Failed ones', async () => {
    await repository.insert(partlyFailed('partly', start));
    await repository.insert(allFailed('failed', start + minute));
    await repository.insert(sentToOne('sent', start + 2 * minute));
    expect(await listedIds({ anyRecipientFailed: true })).toEqual({ total: 2, ids: ['failed', 'partly'] });
    // The spec's state filter keeps its meaning: the message's state.
    expect(await listedIds({ state: 'Failed' })).toEqual({ total: 1, ids: ['failed'] });
    expect(await listedIds({ anyRecipientFailed: true, search: 'hello part' })).toEqual({
      total: 1,
      ids: ['partly'],
    });
  });

  it('finds them through an index that holds only them, not by reading every message', () => {
    const plan = database.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM messages WHERE failed_recipients > 0
         ORDER BY created_at DESC, seq DESC LIMIT 50`,
      )
      .all() as { detail: string }[];
    expect(plan.map((step) => step.detail)).toEqual([
      expect.stringContaining('INDEX messages_with_failures'),
    ]);
  });

  it('follows a message whose recipient fails after it was stored', async () => {
    const sending = message({
      id: 'later',
      createdAt: start,
      recipients: [recipient('+15550000001', 'Pending', start), recipient('+15550000002', 'Pending', start)],
    });
    await repository.insert(sending);
    expect(await listedIds({ anyRecipientFailed: true })).toEqual({ total: 0, ids: [] });
    await repository.update(partlyFailed('later', start));
    expect(await listedIds({ anyRecipientFailed: true })).toEqual({ total: 1, ids: ['later'] });
  });

  it('counts a message as failed once, in the quarter hour its first recipient failed', async () => {
    const firstFailure = start + 20 * minute;
    await repository.insert(
      message({
        id: 'two',
        deviceId: 'modem-a',
        createdAt: start,
        recipients: [
          recipient('+15550000001', 'Processed', start),
          recipient('+15550000002', 'Processed', start),
        ],
        state: 'Processed',
        states: { Pending: start, Processed: start },
      }),
    );
    const partly = partlyFailed('two', firstFailure);
    await repository.update({ ...partly, createdAt: start });
    const bucket = firstFailure - (firstFailure % quarterHour);
    expect(failedCounts()).toEqual({
      gateway: [{ at: bucket, count: 1 }],
      modem: [{ at: bucket, count: 1 }],
    });

    // The other recipient fails an hour later: the message is Failed now, and counted already.
    const later = firstFailure + 60 * minute;
    await repository.update({
      ...partly,
      createdAt: start,
      recipients: [
        recipient('+15550000001', 'Failed', firstFailure),
        recipient('+15550000002', 'Failed', later),
      ],
      state: 'Failed',
      states: { ...partly.states, Failed: later },
    });
    expect(failedCounts()).toEqual({
      gateway: [{ at: bucket, count: 1 }],
      modem: [{ at: bucket, count: 1 }],
    });
    // Sent is still counted when first reached.
    expect(
      new SqliteEventCounts(database.db)
        .since(start)
        .filter((count) => count.event === 'sent')
        .map(({ count }) => count),
    ).toEqual([1]);
  });

  it('counts and lists the failed recipients of messages stored before the step (schema step 15)', async () => {
    await repository.insert(partlyFailed('partly', start));
    await repository.insert(allFailed('failed', start + 40 * minute));
    // As the build before kept them: only the Failed message was counted, when it became Failed.
    rollBackSchema(database.db, 14);
    database.db.exec(`DELETE FROM event_counts WHERE event = 'failed';
      DELETE FROM device_event_counts WHERE event = 'failed';
      INSERT INTO event_counts (bucket, event, count) VALUES (${start + 30 * minute}, 'failed', 1);`);
    await database.close();
    ({ database, repository } = openAt(dir.path));
    expect(await listedIds({ anyRecipientFailed: true })).toEqual({ total: 2, ids: ['failed', 'partly'] });
    expect(failedCounts()).toEqual({
      gateway: [
        { at: start, count: 1 },
        { at: start + 30 * minute, count: 1 },
      ],
      modem: [{ at: start, count: 1 }],
    });
  });
});
