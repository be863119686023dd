import type { IncomingRecord } from '../../contract/domain/incoming.js';
import type { MessageRecord, MessageState } from '../../contract/domain/message.js';
import { shownText } from '../../contract/domain/shownText.js';
import { type MessageRecordColumns, recordColumns, recordOfColumns } from './messageRecordColumns.js';
import type { Database, Statement } from './sqlite.js';

/** A stored record with the rowid it was written under (a cursor to read on from). */
export interface StoredRow<T> {
  rowid: number;
  record: T;
}

/**
 * The read port the desk has onto the core's `messages` and `inbox` tables: the queries it
 * may run, here beside the schema they depend on, instead of SQL of its own. Synchronous, on
 * the caller's connection, so a read joins the caller's transaction.
 */
export class CoreReads {
  private readonly newest: Record<'messages' | 'inbox', Statement<[], { rowid: number | null }>>;
  private readonly messagesAfterRowid: Statement<
    { after: number; limit: number },
    { rowid: number } & MessageRecordColumns
  >;
  private readonly smsAfterRowid: Statement<
    { after: number; limit: number },
    { rowid: number; body: string }
  >;
  private readonly statesOfIds: Statement<[string], { state: MessageState; count: number }>;
  private readonly textsOfIds: Record<
    'messages' | 'inbox',
    Statement<[string], { id: string; text: string | null; purpose: MessageRecord['purpose'] | null }>
  >;

  constructor(db: Database) {
    this.newest = {
      messages: db.prepare('SELECT max(rowid) AS rowid FROM messages'),
      inbox: db.prepare('SELECT max(rowid) AS rowid FROM inbox'),
    };
    this.messagesAfterRowid = db.prepare(
      `SELECT rowid, ${recordColumns()} FROM messages WHERE rowid > @after ORDER BY rowid LIMIT @limit`,
    );
    // NOT INDEXED: by the type equality SQLite would pick inbox_by_type, read every SMS ever
    // received and sort them by rowid, at every step; by rowid it reads only the rows after the
    // cursor.
    this.smsAfterRowid = db.prepare(
      "SELECT rowid, body FROM inbox NOT INDEXED WHERE rowid > @after AND type = 'SMS' ORDER BY rowid LIMIT @limit",
    );
    this.statesOfIds = db.prepare(
      'SELECT state, count(*) AS count FROM messages WHERE id IN (SELECT value FROM json_each(?)) GROUP BY state',
    );
    // By id through each table's unique index; the text from the record (an SMS's, an MMS's; a
    // data message has none: messageRecordColumns.ts) or the received record.
    this.textsOfIds = {
      messages: db.prepare(
        `SELECT id, coalesce(json_extract(body, '$.text'), json_extract(body, '$.mms.text')) AS text,
           json_extract(body, '$.purpose') AS purpose
         FROM messages WHERE id IN (SELECT value FROM json_each(?))`,
      ),
      inbox: db.prepare(
        "SELECT id, json_extract(body, '$.content') AS text, NULL AS purpose FROM inbox WHERE id IN (SELECT value FROM json_each(?))",
      ),
    };
  }

  /** The newest rowid of a table; 0 when it is empty. */
  newestRowid(table: 'messages' | 'inbox'): number {
    return this.newest[table].get()?.rowid ?? 0;
  }

  /** Outgoing messages written after `rowid`, oldest first, at most `limit`. */
  messagesAfter(rowid: number, limit: number): StoredRow<MessageRecord>[] {
    return this.messagesAfterRowid
      .all({ after: rowid, limit })
      .map((row) => ({ rowid: row.rowid, record: recordOfColumns(row) }));
  }

  /** Received SMS (no other type) written after `rowid`, oldest first, at most `limit`. */
  smsAfter(rowid: number, limit: number): StoredRow<IncomingRecord>[] {
    return this.smsAfterRowid
      .all({ after: rowid, limit })
      .map((row) => ({ rowid: row.rowid, record: JSON.parse(row.body) as IncomingRecord }));
  }

  /**
   * The texts of the outgoing messages (`messages`) or received messages (`inbox`) with these
   * ids, as the window shows them (a verification code masked): null for a data message; ids
   * no longer stored are left out.
   */
  textsOf(table: 'messages' | 'inbox', ids: readonly string[]): Map<string, string | null> {
    if (ids.length === 0) return new Map();
    return new Map(
      this.textsOfIds[table]
        .all(JSON.stringify(ids))
        .map((row) => [
          row.id,
          row.text === null ? null : shownText({ purpose: row.purpose ?? undefined }, row.text),
        ]),
    );
  }

  /** How many of the messages with these ids are in each state (ids no longer stored count nowhere). */
  stateCounts(ids: readonly string[]): Partial<Record<MessageState, number>> {
    return Object.fromEntries(this.statesOfIds.all(JSON.stringify(ids)).map((row) => [row.state, row.count]));
  }
}
