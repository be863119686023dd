import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IncomingRecord } from '../../server/contract/domain/incoming.js';
import {
  ConversationStore,
  type ConversationSummary,
} from '../../server/services/desk/conversations/conversationStore.js';
import { SqliteInboxRepository } from '../../server/store/inboxRepository.js';
import { SqliteMessageRepository } from '../../server/store/messageRepository.js';
import { CoreReads } from '../../server/store/sqlite/coreReads.js';
import { databaseFileName } from '../../server/store/sqlite/database.js';
import { schemaSteps } from '../../server/store/sqlite/schema.js';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import { message, rollBackSchema, type TestDatabase, temporaryDirectory } from '../store/storeTestKit.js';
import { fileConversations, openRecordingDatabase } from './deskDatabase.js';

const customer = '+15550000001';
const dataSender = '+15550000002';
const archivedPeer = '+15550000003';
const start = Date.UTC(2026, 0, 1);

/** The schema step that keys conversations by their party and reads their last text from the thread. */
const slimConversationsStep = schemaSteps.findIndex((step) => step.includes('desk_conversations_by_peer'));

/** The conversations table as the steps before `slimConversationsStep` made it (schema step 4). */
const conversationsBeforeStep = `
  CREATE TABLE desk_conversations (
    peer TEXT PRIMARY KEY,
    last_at INTEGER NOT NULL,
    last_direction TEXT NOT NULL,
    last_text TEXT NOT NULL,
    reply_device_id TEXT,
    reply_sim_number INTEGER,
    unread INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX desk_conversations_by_time ON desk_conversations (archived, last_at);`;

function received(id: string, receivedAt: number): IncomingRecord {
  return {
    id,
    type: 'SMS',
    deviceId: 'modem-2',
    simNumber: 2,
    sender: customer,
    content: `text of ${id}`,
    receivedAt,
  };
}

/** The three conversations the stored messages make, newest first, archived last. */
const expected: ConversationSummary[] = [
  {
    peer: dataSender,
    lastAt: start + 120_000,
    lastDirection: 'out',
    lastText: '[data message]',
    unread: 0,
    archived: false,
  },
  {
    peer: customer,
    lastAt: start + 60_000,
    lastDirection: 'in',
    lastText: 'text of question',
    replyDeviceId: 'modem-2',
    replySimNumber: 2,
    unread: 1,
    archived: false,
  },
  {
    peer: archivedPeer,
    lastAt: start + 180_000,
    lastDirection: 'out',
    lastText: 'hello promo',
    unread: 0,
    archived: true,
  },
];

describe('the conversations list', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  const preparedTexts: string[] = [];

  function open(): void {
    database = openRecordingDatabase(dir.path, preparedTexts);
  }

  function storeOf(): ConversationStore {
    return new ConversationStore(database.db, database.commits, new CoreReads(database.db));
  }

  /** Stores the messages of `expected` (archiving the third party's) and files them as the desk does. */
  async function storeAndIndex(): Promise<ConversationStore> {
    const { db, commits, pages } = database;
    const messages = new SqliteMessageRepository(db, commits, pages);
    const inbox = new SqliteInboxRepository(db, commits, pages);
    await messages.insert(message({ id: 'first', createdAt: start }));
    await messages.insert(message({ id: 'answered', createdAt: start + 60_000 }));
    await inbox.insert(received('question', start + 60_000));
    await messages.insert(
      message({
        id: 'binary',
        createdAt: start + 120_000,
        content: { kind: 'data', data: 'AAE=', port: 2948 },
        recipients: [{ phoneNumber: dataSender, state: 'Pending' }],
      }),
    );
    await messages.insert(
      message({
        id: 'promo',
        createdAt: start + 180_000,
        recipients: [{ phoneNumber: archivedPeer, state: 'Pending' }],
      }),
    );
    await fileConversations(database);
    const store = storeOf();
    await store.archive(archivedPeer, true);
    return store;
  }

  /** Both lists and the one conversation read as the Conversations screen reads them. */
  function everything(store: ConversationStore): ConversationSummary[] {
    return [
      ...store.list({ archived: false, limit: 10, offset: 0 }).items,
      ...store.list({ archived: true, limit: 10, offset: 0 }).items,
    ];
  }

  beforeEach(async () => {
    dir = await temporaryDirectory();
    preparedTexts.length = 0;
  });

  afterEach(async () => {
    await database.close();
    await dir.remove();
  });

  it("shows each party's last message, read through keys and indexes only", async () => {
    open();
    const store = await storeAndIndex();
    expect(everything(store)).toEqual(expected);
    expect(store.list({ archived: false, limit: 10, offset: 0 }).total).toBe(2);
    expect(store.get(customer)).toEqual(expected[1]);

    // The list, one conversation, and the texts of their last messages.
    // Each CoreReads prepares its statements: the index's and the store's.
    const reads = [...new Set(preparedTexts)].filter(
      (sql) =>
        /^\s*SELECT\b[\s\S]*\bFROM desk_conversations\b/.test(sql) ||
        /^\s*SELECT id, (?:coalesce\()?json_extract\(/.test(sql),
    );
    expect(reads.filter((sql) => sql.includes('desk_thread_items'))).toHaveLength(2);
    expect(reads.filter((sql) => sql.includes('json_each'))).toHaveLength(2);
    for (const sql of reads) {
      const plan = (database.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map(
        (step) => step.detail,
      );
      // The ids to look up are the statement's own list (json_each); every table is searched.
      expect(plan.filter((detail) => /^SCAN /.test(detail) && !detail.includes('json_each'))).toEqual([]);
      expect(plan.join('\n')).not.toContain('TEMP B-TREE');
    }
    const indexes = database.db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'desk_conversations'")
      .all() as { name: string }[];
    expect(indexes.map((index) => index.name)).toEqual(['desk_conversations_by_time']);
  });

  it('shows the text a scheduled message was changed to, and none once retention removed it', async () => {
    open();
    const store = await storeAndIndex();
    const messages = new SqliteMessageRepository(database.db, database.commits, database.pages);
    const promo = messages.get('promo');
    if (!promo) throw new Error('the promo message is stored');
    await messages.update({ ...promo, content: { kind: 'text', text: 'new price' } });
    expect(store.get(archivedPeer)?.lastText).toBe('new price');

    await database.commits.write(() => database.db.prepare("DELETE FROM messages WHERE id = 'promo'").run())
      .durable;
    expect(store.get(archivedPeer)).toEqual({ ...expected[2], lastText: '' });
  });

  it('lists the same conversations after the step as the table before it held', async () => {
    expect(slimConversationsStep).toBeGreaterThan(0);
    open();
    await storeAndIndex();
    await database.close();

    // The conversations as the build before the step filed them, each with its last text.
    const older = openSqlite(join(dir.path, databaseFileName));
    older.exec(`DROP TABLE desk_conversations; ${conversationsBeforeStep}`);
    const insert = older.prepare(
      `INSERT INTO desk_conversations
         (peer, last_at, last_direction, last_text, reply_device_id, reply_sim_number, unread, archived)
       VALUES (@peer, @lastAt, @lastDirection, @lastText, @replyDeviceId, @replySimNumber, @unread, @archived)`,
    );
    for (const summary of expected) {
      insert.run({
        replyDeviceId: null,
        replySimNumber: null,
        ...summary,
        archived: summary.archived ? 1 : 0,
      });
    }
    // The later steps are undone too, so that they run again after this one.
    rollBackSchema(older, slimConversationsStep);
    const before = older
      .prepare(
        `SELECT peer, last_at, last_direction, last_text, reply_device_id, reply_sim_number, unread, archived
         FROM desk_conversations ORDER BY archived, last_at DESC`,
      )
      .all();
    older.close();
    expect(before).toHaveLength(3);

    open();
    const after = everything(storeOf());
    expect(after).toEqual(expected);
    expect(
      after.map((summary) => ({
        peer: summary.peer,
        last_at: summary.lastAt,
        last_direction: summary.lastDirection,
        last_text: summary.lastText,
        reply_device_id: summary.replyDeviceId ?? null,
        reply_sim_number: summary.replySimNumber ?? null,
        unread: summary.unread,
        archived: summary.archived ? 1 : 0,
      })),
    ).toEqual(before);
  });
});
