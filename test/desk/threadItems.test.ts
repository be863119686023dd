import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IncomingRecord } from '../../server/contract/domain/incoming.js';
import { ConversationStore } from '../../server/services/desk/conversations/conversationStore.js';
import { SqliteInboxRepository } from '../../server/store/inboxRepository.js';
import { SqliteMessageRepository } from '../../server/store/messageRepository.js';
import { CoreReads } from '../../server/store/sqlite/coreReads.js';
import { databaseFileName } from '../../server/store/sqlite/database.js';
import { registerStoredViewFunctions, schemaSteps } from '../../server/store/sqlite/schema.js';
import { registerSearchFunctions } from '../../server/store/sqlite/searchIndex.js';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import { message, type TestDatabase, temporaryDirectory } from '../store/storeTestKit.js';
import { fileConversations, openRecordingDatabase } from './deskDatabase.js';

const peer = '+15550000001';
const start = Date.UTC(2026, 0, 1);

function received(id: string, receivedAt: number): IncomingRecord {
  return { id, type: 'SMS', deviceId: 'modem-1', simNumber: 1, sender: peer, content: id, receivedAt };
}

/** The schema step that keys thread items by their reading order. */
const keyedItemsStep = schemaSteps.findIndex((step) => step.includes('desk_thread_items_by_time'));

describe("a conversation's thread items", () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  const preparedTexts: string[] = [];

  function open(): void {
    database = openRecordingDatabase(dir.path, preparedTexts);
  }

  /** Stores two messages to `peer` and one from it, then files them as the desk does. */
  async function storeAndIndex(): Promise<ConversationStore> {
    const { db, commits, pages } = database;
    const messages = new SqliteMessageRepository(db, commits, pages);
    const inbox = new SqliteInboxRepository(db, commits, pages);
    await messages.insert(message({ id: 'first', createdAt: start }));
    await messages.insert(message({ id: 'answered', createdAt: start + 60_000 }));
    await inbox.insert(received('reply', start + 60_000));
    await fileConversations(database);
    return new ConversationStore(db, commits, new CoreReads(db));
  }

  beforeEach(async () => {
    dir = await temporaryDirectory();
    preparedTexts.length = 0;
  });

  afterEach(async () => {
    await database.close();
    await dir.remove();
  });

  it('lists a thread newest first, through the table key alone, with no second index', async () => {
    open();
    const store = await storeAndIndex();
    expect(store.items(peer, 10, 0)).toEqual({
      total: 3,
      items: [
        { direction: 'in', id: 'reply', at: start + 60_000 },
        { direction: 'out', id: 'answered', at: start + 60_000 },
        { direction: 'out', id: 'first', at: start },
      ],
    });
    // The conversations' reads look at their thread's newest item too (conversationSummaries.test.ts).
    const itemReads = preparedTexts.filter(
      (sql) =>
        /^\s*SELECT\b[\s\S]*\bFROM desk_thread_items\b/.test(sql) && !sql.includes('desk_conversations'),
    );
    expect(itemReads).toHaveLength(2);
    for (const sql of itemReads) {
      const plan = (database.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((step) => step.detail)
        .join('\n');
      expect(plan).toContain('USING PRIMARY KEY (peer=?)');
      expect(plan).not.toContain('TEMP B-TREE');
    }
    const indexes = database.db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'desk_thread_items'")
      .all() as { name: string }[];
    expect(indexes.map((index) => index.name)).toEqual([]);
  });

  it('keeps the items a database filed before they were keyed by time', async () => {
    expect(keyedItemsStep).toBeGreaterThan(0);
    // A database as the build before the step left it, with one item filed.
    const older = openSqlite(join(dir.path, databaseFileName));
    registerStoredViewFunctions(older);
    registerSearchFunctions(older);
    for (const step of schemaSteps.slice(0, keyedItemsStep)) older.exec(step);
    older.pragma(`user_version = ${keyedItemsStep}`);
    older
      .prepare("INSERT INTO desk_thread_items (peer, at, direction, item_id) VALUES (?, ?, 'out', 'filed')")
      .run(peer, start - 60_000);
    older.close();

    open();
    const store = new ConversationStore(database.db, database.commits, new CoreReads(database.db));
    expect(store.items(peer, 10, 0)).toEqual({
      total: 1,
      items: [{ direction: 'out', id: 'filed', at: start - 60_000 }],
    });
  });
});
