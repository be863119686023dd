import { e164PeerKey } from '../../server/contract/domain/peerKey.js';
import { ConversationIndex } from '../../server/services/desk/conversations/conversationIndex.js';
import { CoreReads } from '../../server/store/sqlite/coreReads.js';
import { openTestDatabase, type TestDatabase } from '../store/storeTestKit.js';

/**
 * A test database that keeps the SQL of every statement prepared on it in `preparedTexts`, so a
 * test can ask SQLite how the desk's reads run (`EXPLAIN QUERY PLAN`).
 */
export function openRecordingDatabase(path: string, preparedTexts: string[]): TestDatabase {
  const database = openTestDatabase(path);
  const prepare = database.db.prepare.bind(database.db);
  database.db.prepare = ((sql: string) => {
    preparedTexts.push(sql);
    return prepare(sql);
  }) as typeof database.db.prepare;
  return database;
}

/** Files every stored message into its party's thread, as the desk does. */
export async function fileConversations(database: TestDatabase): Promise<void> {
  const { db, commits } = database;
  await new ConversationIndex(
    new CoreReads(db),
    db,
    commits,
    e164PeerKey(() => null),
  ).catchUp();
}
