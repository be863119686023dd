import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageRecord, MessageState } from '../../server/contract/domain/message.js';
import type { MessageView } from '../../server/contract/domain/messageView.js';
import { createLogger, type Logger, type LogRecord, silentLogger } from '../../server/logging/logger.js';
import { messageRow } from '../../server/store/messageRepository.js';
import type {
  MessageListForm,
  MessageQuery,
  MessageRepository,
  Page,
} from '../../server/store/repositories.js';
import { databaseFileName, type GatewayDatabase, openDatabase } from '../../server/store/sqlite/database.js';
import {
  type LegacyMessageColumns,
  legacyOwnFields,
  storedMessageView,
} from '../../server/store/sqlite/legacyMessageRows.js';
import {
  type MessageRecordColumns,
  recordColumns,
  recordOfColumns,
} from '../../server/store/sqlite/messageRecordColumns.js';
import { PageReader } from '../../server/store/sqlite/pageReader.js';
import { schemaSteps } from '../../server/store/sqlite/schema.js';
import type { Database } from '../../server/store/sqlite/sqlite.js';

/** A fresh directory under the OS temp dir, removed by the returned `remove`. */
export async function temporaryDirectory(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'smsgw-store-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A logger that keeps what it is told, for asserting that damage was reported. */
export function recordingLogger(): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  return { logger: createLogger({ level: 'DEBUG', sinks: [(record) => records.push(record)] }), records };
}

/** A gateway database and the page reader on it; `close` closes the reader first, as the storage does. */
export interface TestDatabase extends GatewayDatabase {
  readonly pages: PageReader;
}

/** A fresh gateway database in `dir`, as the storage opens it. */
export function openTestDatabase(dir: string): TestDatabase {
  const database = openDatabase(join(dir, databaseFileName), silentLogger);
  const { path, db, commits } = database;
  const pages = new PageReader(path, commits, silentLogger);
  return {
    path,
    db,
    commits,
    pages,
    async close() {
      await pages.close();
      await database.close();
    },
  };
}

/**
 * Makes the COMMIT of the next batch fail, as a disk error at fsync would: a row violating a
 * deferred foreign key opens the batch, and SQLite refuses the whole commit. Call it with no
 * batch open (the pragma is ignored inside a transaction).
 */
export function failNextCommit(database: GatewayDatabase): void {
  const { db, commits } = database;
  if (db.isTransaction) throw new Error('failNextCommit needs no batch open');
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE IF NOT EXISTS sabotage_parent (id INTEGER PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS sabotage (parent INTEGER REFERENCES sabotage_parent (id) DEFERRABLE INITIALLY DEFERRED)`);
  commits
    .write(() => db.prepare('INSERT INTO sabotage (parent) VALUES (1)').run())
    .durable.catch(() => undefined);
}

/** A minimal valid message; `overrides` set what the test is about. */
export function message(overrides: Partial<MessageRecord> & { id: string }): MessageRecord {
  const state: MessageState = overrides.state ?? 'Pending';
  return {
    content: { kind: 'text', text: `hello ${overrides.id}` },
    recipients: [{ phoneNumber: '+15550000001', state }],
    withDeliveryReport: false,
    priority: 0,
    isEncrypted: false,
    createdAt: Date.UTC(2026, 0, 1),
    sequence: 0,
    states: { [state]: Date.UTC(2026, 0, 1) },
    state,
    ...overrides,
  };
}

/**
 * SQL that undoes each later schema step, by the version it brings a database to: a test turns
 * a database back to an older version, with its rows, to see what the steps make of them. Steps
 * whose SQL can run again as it is (they drop what they make first) need none.
 */
const undoSteps: Readonly<Record<number, string | ((db: Database) => void)>> = {
  12: 'DROP TRIGGER messages_failed_insert; DROP TRIGGER messages_failed_update; DROP TABLE failed_minutes;',
  13: `DROP TRIGGER messages_awaiting_insert; DROP TRIGGER messages_awaiting_enter;
    DROP TRIGGER messages_awaiting_leave; DROP TRIGGER messages_awaiting_delete;
    DROP TABLE awaiting_report_minutes;`,
  14: 'DROP TABLE audit_events;',
  // The count triggers stay as this step made them: the step makes them again.
  15: `DROP TRIGGER messages_failure_count_insert; DROP TRIGGER messages_failure_count_update;
    DROP INDEX messages_with_failures; ALTER TABLE messages DROP COLUMN failed_recipients;`,
  20: 'DROP TABLE sends;',
  // The indexes stay keyed by rowid: the step makes them again from the rows.
  21: (['messages', 'inbox'] as const)
    .map(
      (table) => `DROP TRIGGER ${table}_search_reorder; DROP TRIGGER ${table}_search_insert;
        DROP TRIGGER ${table}_search_delete; DROP TABLE ${table}_unordered;
        CREATE TRIGGER ${table}_search_insert AFTER INSERT ON ${table} BEGIN
          INSERT INTO ${table}_text (rowid, text) VALUES (new.rowid, search_text(new.search));
          INSERT INTO ${table}_digits (rowid, digits) VALUES (new.rowid, search_digits(new.search));
        END;
        CREATE TRIGGER ${table}_search_delete AFTER DELETE ON ${table} BEGIN
          DELETE FROM ${table}_text WHERE rowid = old.rowid;
          DELETE FROM ${table}_digits WHERE rowid = old.rowid;
        END;`,
    )
    .join('\n'),
  24: (db) => {
    db.exec(`DROP TRIGGER messages_awaiting_insert; DROP TRIGGER messages_awaiting_enter;
      DROP TRIGGER messages_awaiting_leave; DROP TRIGGER messages_awaiting_delete;
      ALTER TABLE messages ADD COLUMN view TEXT NOT NULL DEFAULT '';
      ALTER TABLE messages ADD COLUMN view_content TEXT NOT NULL DEFAULT '';
      ${viewFlagTriggers()}`);
    const rewrite = db.prepare(
      'UPDATE messages SET body = @body, view = @view, view_content = @view_content WHERE id = @id',
    );
    const rows = db.prepare(`SELECT ${recordColumns()} FROM messages`).all() as MessageRecordColumns[];
    for (const row of rows) {
      const { id, body, view, view_content } = schemaTwentyThreeMessageRow(recordOfColumns(row));
      rewrite.run({ id, body, view, view_content });
    }
  },
  25: `DROP TRIGGER waiting_insert; DROP TRIGGER waiting_update; DROP TRIGGER waiting_leave;
    DROP TRIGGER waiting_delete; DROP TABLE waiting;`,
  26: 'DROP TABLE verifications;',
  27: 'DROP TRIGGER message_attachments_follow; DROP TABLE message_attachments;',
};

/** The waiting-for-report triggers of schema 17 to 23, which read the flag from the stored view. */
function viewFlagTriggers(): string {
  const step = schemaSteps[16] ?? '';
  return step.slice(step.indexOf('CREATE TRIGGER'), step.indexOf('UPDATE messages'));
}

/** Turns `db` back to schema `version`: the steps after it run again at the next open. */
export function rollBackSchema(db: Database, version: number): void {
  const found = db.pragma('user_version', { simple: true }) as number;
  for (let step = found; step > version; step--) {
    const undo = undoSteps[step] ?? '';
    if (typeof undo === 'string') db.exec(undo);
    else undo(db);
  }
  db.pragma(`user_version = ${version}`);
}

/**
 * The row of `record` as the builds of schema 1 to 16 wrote it, the whole record in `body`, for
 * the tests that upgrade an older database (`INSERT` with the first eight named columns).
 */
export function schemaOneMessageRow(record: MessageRecord): Record<string, string | number | null> {
  const { id, created_at, seq, state, state_at, device_id, search } = messageRow(record);
  return { id, created_at, seq, state, state_at, device_id, search, body: JSON.stringify(record) };
}

/**
 * The row of `record` as the builds of schema 17 to 23 wrote it: `body` without what the columns
 * and the stored view held, the view and the content beside it (legacyMessageRows.ts).
 */
export function schemaTwentyThreeMessageRow(
  record: MessageRecord,
): LegacyMessageColumns & Omit<ReturnType<typeof messageRow>, 'body'> {
  const { view, content } = storedMessageView(record);
  return { ...messageRow(record), body: legacyOwnFields(record), view, view_content: content };
}

/** How the store's tests list messages: with their content, as the UI asks for them. */
export const listForm: MessageListForm = { withContent: true, unassignedDeviceId: 'only-device' };

/** A page of messages as the API lists them (`listForm`), parsed. */
export async function listedPage(
  repository: Pick<MessageRepository, 'list'>,
  query: MessageQuery,
): Promise<Page<MessageView>> {
  const page = await repository.list(query, listForm);
  return { total: page.total, items: JSON.parse(page.json) as MessageView[] };
}
