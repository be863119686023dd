import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { SqliteMessageRepository } from '../../server/store/messageRepository.js';
import {
  message,
  openTestDatabase,
  rollBackSchema,
  type TestDatabase,
  temporaryDirectory,
} from './storeTestKit.js';

/**
 * The messages still waiting for their delivery report, per modem (GET /devices, every screen of
 * the UI): counted from kept per-minute counts, so the answer costs the same however many wait.
 */
const start = Date.UTC(2026, 0, 1);
const minute = 60_000;
const hour = 60 * minute;

function sent(id: string, deviceId: string, sentAt: number, withDeliveryReport = true): MessageRecord {
  return message({
    id,
    deviceId,
    withDeliveryReport,
    state: 'Sent',
    createdAt: sentAt - 1_000,
    states: { Pending: sentAt - 1_000, Processed: sentAt - 500, Sent: sentAt },
  });
}

function openAt(path: string): { database: TestDatabase; repository: SqliteMessageRepository } {
  const database = openTestDatabase(path);
  return { database, repository: new SqliteMessageRepository(database.db, database.commits, database.pages) };
}

describe('SqliteMessageRepository.awaitingReports', () => {
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

  it('counts per modem, to the millisecond at both ends, only Sent messages that asked for a report', async () => {
    const from = start + 10 * minute + 30_000;
    const before = start + 5 * hour + 20_000;
    for (const record of [
      sent('before-from', 'a', from - 1),
      sent('at-from', 'a', from),
      sent('middle', 'a', start + 2 * hour),
      sent('middle-b', 'b', start + 3 * hour + 7),
      sent('last', 'b', before - 1),
      sent('at-before', 'b', before),
      sent('no-report-asked', 'a', start + 2 * hour, false),
    ]) {
      await repository.insert(record);
    }
    const delivered = sent('delivered', 'a', start + hour);
    await repository.insert(delivered);
    await repository.update({
      ...delivered,
      state: 'Delivered',
      states: { ...delivered.states, Delivered: before },
    });
    const byDevice = (rows: ReturnType<typeof repository.awaitingReports>) =>
      Object.fromEntries(rows.map(({ deviceId, ...rest }) => [deviceId, rest]));
    const expected = {
      a: { count: 2, oldestSentAt: from },
      b: { count: 2, oldestSentAt: start + 3 * hour + 7 },
    };
    expect(byDevice(repository.awaitingReports(from, before))).toEqual(expected);
    await database.close();
    ({ database, repository } = openAt(dir.path));
    expect(byDevice(repository.awaitingReports(from, before))).toEqual(expected);
    // Within one minute, and not at all.
    expect(byDevice(repository.awaitingReports(from, from + 1))).toEqual({
      a: { count: 1, oldestSentAt: from },
    });
    expect(repository.awaitingReports(start + 4 * hour, start + 4 * hour + minute)).toEqual([]);
  });

  it('counts what a database stored before it kept the counts (schema step 13)', async () => {
    const old = sent('old', 'a', start + hour + 5);
    await repository.insert(old);
    rollBackSchema(database.db, 12);
    // The row as version 12 wrote it: the whole record in its body.
    database.db.prepare('UPDATE messages SET body = ? WHERE id = ?').run(JSON.stringify(old), old.id);
    await database.close();
    ({ database, repository } = openAt(dir.path));
    expect(repository.awaitingReports(start, start + 2 * hour)).toEqual([
      { deviceId: 'a', count: 1, oldestSentAt: start + hour + 5 },
    ]);
  });

  it('forgets a message once retention removed it', async () => {
    await repository.insert(sent('old', 'a', start + hour));
    await repository.pruneOlderThan(start + 2 * hour);
    expect(repository.awaitingReports(start, start + 2 * hour)).toEqual([]);
  });
});

describe('SqliteMessageRepository.awaitingReports at 30,000 waiting', () => {
  const waiting = 30_000;
  const now = start + 3 * 24 * hour;
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  let repository: SqliteMessageRepository;

  beforeAll(async () => {
    dir = await temporaryDirectory();
    ({ database, repository } = openAt(dir.path));
    const span = 2 * 24 * hour;
    const writes: Promise<void>[] = [];
    for (let index = 0; index < waiting; index++) {
      const sentAt = now - span + Math.floor((span * index) / waiting);
      writes.push(repository.insert(sent(`sent-${index}`, `modem-${index % 2}`, sentAt)));
    }
    await Promise.all(writes);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    await dir?.remove();
  });

  it('counts them all, reading no Sent row outside the minutes at the two ends', () => {
    const preparedTexts: string[] = [];
    const prepare = database.db.prepare.bind(database.db);
    database.db.prepare = ((sql: string) => {
      preparedTexts.push(sql);
      return prepare(sql);
    }) as typeof database.db.prepare;
    const counting = new SqliteMessageRepository(database.db, database.commits, database.pages);
    preparedTexts.length = 0;
    const rows = counting.awaitingReports(now - 2 * 24 * hour, now - hour);
    expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(waiting - waiting / 48);

    // Reading every waiting record grows with the history; the kept counts and an index search
    // of the end minutes do not. The plan says which it is, however fast this machine is.
    const messageReads = preparedTexts.filter((sql) => /\bFROM messages\b/.test(sql));
    expect(messageReads.length).toBeGreaterThan(0);
    for (const sql of messageReads) {
      const plan = database.db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all({ sentFrom: 0, sentBefore: 0, deviceId: null }) as { detail: string }[];
      const details = plan.map((step) => step.detail).join('; ');
      expect(details).toMatch(/SEARCH messages USING INDEX messages_by_state_time/);
      expect(details).not.toMatch(/SCAN messages/);
    }
    expect(preparedTexts.some((sql) => /\bFROM awaiting_report_minutes\b/.test(sql))).toBe(true);
  });
});
