import type { MessageRecord } from '../../contract/domain/message.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import {
  type LegacyMessageColumns,
  legacyOwnFields,
  recordOfLegacyColumns,
  type StoredMessageView,
  storedMessageView,
} from './legacyMessageRows.js';
import { recordOwnFields } from './messageRecordColumns.js';
import { recipientFailuresStep } from './recipientFailures.js';
import {
  digitsIndexStep,
  foldedSearchStep,
  rowidKeyStep,
  searchIndexStep,
  searchUpdateStep,
} from './searchIndex.js';
import type { Database } from './sqlite.js';
import { stateCountTriggers } from './stateCountTriggers.js';
import { waitingQueueStep } from './waitingQueue.js';

/**
 * The schema, as steps: step N brings a database from `user_version` N to N+1. A database made
 * by a newer build (higher version) is refused rather than written with wrong assumptions.
 *
 * A received message's row keeps its whole record as JSON in `body`. A message's row keeps in
 * `body` what its columns do not hold of its record (messageRecordColumns.ts); pages render its
 * API view from them. The other columns exist only to be filtered and ordered by, each with an index for the queries the API
 * makes. `search` holds the folded text that `?search=` looks in, indexed
 * by FTS5 tables so a substring search does not scan the history (searchIndex.ts since version 8).
 */
/** True for every body whose `states` has a key the chart counts (see schema step 6). */
const mayHoldCountedState = `(instr(new.body, '"Sent"') > 0 OR instr(new.body, '"Delivered"') > 0 OR instr(new.body, '"Failed"') > 0)`;

/** Where a row's `withDeliveryReport` is read from: SQL true for a row that asked for a report. */
type ReportFlag = (row: string) => string;
/** The whole record in `body`, up to schema step 17. */
const flagInRecord: ReportFlag = (row) => `json_extract(${row}.body, '$.withDeliveryReport') = 1`;
/** The stored `view`, from step 17 to 23. */
const flagInView: ReportFlag = (row) => `json_extract(${row}.view, '$.withDeliveryReport') = 1`;
/** `body` since step 24, which holds the flag only when false (messageRecordColumns.ts). */
export const flagInBody: ReportFlag = (row) => `json_extract(${row}.body, '$.withDeliveryReport') IS NOT 0`;

export const schemaSteps: readonly string[] = [
  `
  CREATE TABLE messages (
    id TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    state_at INTEGER,
    device_id TEXT,
    search TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX messages_by_time ON messages (created_at, seq);
  CREATE INDEX messages_by_state ON messages (state, created_at, seq);
  CREATE INDEX messages_by_state_time ON messages (state, state_at);
  CREATE INDEX messages_by_device ON messages (device_id, created_at, seq);
  CREATE VIRTUAL TABLE messages_search USING fts5 (search, content = 'messages', tokenize = 'trigram');
  CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_search (rowid, search) VALUES (new.rowid, new.search);
  END;
  CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_search (messages_search, rowid, search) VALUES ('delete', old.rowid, old.search);
  END;

  CREATE TABLE inbox (
    id TEXT NOT NULL UNIQUE,
    received_at INTEGER NOT NULL,
    type TEXT NOT NULL,
    device_id TEXT NOT NULL,
    search TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX inbox_by_time ON inbox (received_at);
  CREATE INDEX inbox_by_type ON inbox (type, received_at);
  CREATE INDEX inbox_by_device ON inbox (device_id, received_at);
  CREATE VIRTUAL TABLE inbox_search USING fts5 (search, content = 'inbox', tokenize = 'trigram');
  CREATE TRIGGER inbox_search_insert AFTER INSERT ON inbox BEGIN
    INSERT INTO inbox_search (rowid, search) VALUES (new.rowid, new.search);
  END;
  CREATE TRIGGER inbox_search_delete AFTER DELETE ON inbox BEGIN
    INSERT INTO inbox_search (inbox_search, rowid, search) VALUES ('delete', old.rowid, old.search);
  END;

  CREATE TABLE logs (
    id INTEGER PRIMARY KEY,
    created_at INTEGER NOT NULL,
    priority TEXT NOT NULL,
    module TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX logs_by_time ON logs (created_at);

  -- What the dashboard's daily chart counts, per quarter hour (every time zone's offset is a
  -- whole number of quarter hours, so a bucket never straddles two local days). Kept up to date
  -- by triggers, so the chart never reads the history; retention leaves the counts in place.
  CREATE TABLE event_counts (
    bucket INTEGER NOT NULL,
    event TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (bucket, event)
  ) WITHOUT ROWID;
  CREATE TRIGGER messages_count_insert AFTER INSERT ON messages BEGIN
    INSERT INTO event_counts (bucket, event, count)
      SELECT value - value % 900000, lower(key), 1 FROM json_each(new.body, '$.states')
      WHERE key IN ('Sent', 'Delivered', 'Failed')
      ON CONFLICT (bucket, event) DO UPDATE SET count = count + 1;
  END;
  CREATE TRIGGER messages_count_update AFTER UPDATE OF body ON messages BEGIN
    INSERT INTO event_counts (bucket, event, count)
      SELECT value - value % 900000, lower(key), 1 FROM json_each(new.body, '$.states')
      WHERE key IN ('Sent', 'Delivered', 'Failed') AND json_extract(old.body, '$.states.' || key) IS NULL
      ON CONFLICT (bucket, event) DO UPDATE SET count = count + 1;
  END;
  CREATE TRIGGER inbox_count_insert AFTER INSERT ON inbox BEGIN
    INSERT INTO event_counts (bucket, event, count)
      VALUES (new.received_at - new.received_at % 900000, 'received', 1)
      ON CONFLICT (bucket, event) DO UPDATE SET count = count + 1;
  END;

  CREATE TABLE collections (
    collection TEXT NOT NULL,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (collection, id)
  ) WITHOUT ROWID;
  `,
  `
  -- Rows per table, kept by triggers: the total of an unfiltered page (X-Total-Count) without a
  -- count(*) that reads a million index entries at every start.
  CREATE TABLE row_counts (
    name TEXT PRIMARY KEY,
    total INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO row_counts (name, total) VALUES
    ('messages', (SELECT count(*) FROM messages)),
    ('inbox', (SELECT count(*) FROM inbox));
  CREATE TRIGGER messages_total_insert AFTER INSERT ON messages BEGIN
    UPDATE row_counts SET total = total + 1 WHERE name = 'messages';
  END;
  CREATE TRIGGER messages_total_delete AFTER DELETE ON messages BEGIN
    UPDATE row_counts SET total = total - 1 WHERE name = 'messages';
  END;
  CREATE TRIGGER inbox_total_insert AFTER INSERT ON inbox BEGIN
    UPDATE row_counts SET total = total + 1 WHERE name = 'inbox';
  END;
  CREATE TRIGGER inbox_total_delete AFTER DELETE ON inbox BEGIN
    UPDATE row_counts SET total = total - 1 WHERE name = 'inbox';
  END;
  `,
  `
  -- Voice calls that rang on a modem (kept as missed calls), by time and by caller.
  CREATE TABLE calls (
    id TEXT NOT NULL UNIQUE,
    at INTEGER NOT NULL,
    device_id TEXT NOT NULL,
    number TEXT,
    rejected INTEGER NOT NULL
  );
  CREATE INDEX calls_by_time ON calls (at);
  CREATE INDEX calls_by_number ON calls (number, at);

  -- Each modem's signal (+CSQ), sampled every few minutes for the modem card's 24 h history.
  CREATE TABLE signal_samples (
    device_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    rssi INTEGER NOT NULL,
    dbm INTEGER,
    PRIMARY KEY (device_id, at)
  ) WITHOUT ROWID;

  -- event_counts per modem, kept the same way (messages without a modem yet are not counted).
  CREATE TABLE device_event_counts (
    device_id TEXT NOT NULL,
    bucket INTEGER NOT NULL,
    event TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (device_id, bucket, event)
  ) WITHOUT ROWID;
  INSERT INTO device_event_counts (device_id, bucket, event, count)
    SELECT messages.device_id, value - value % 900000, lower(key), count(*)
    FROM messages, json_each(messages.body, '$.states')
    WHERE messages.device_id IS NOT NULL AND key IN ('Sent', 'Delivered', 'Failed')
    GROUP BY 1, 2, 3;
  INSERT INTO device_event_counts (device_id, bucket, event, count)
    SELECT device_id, received_at - received_at % 900000, 'received', count(*) FROM inbox GROUP BY 1, 2;
  CREATE TRIGGER messages_device_count_insert AFTER INSERT ON messages WHEN new.device_id IS NOT NULL BEGIN
    INSERT INTO device_event_counts (device_id, bucket, event, count)
      SELECT new.device_id, value - value % 900000, lower(key), 1 FROM json_each(new.body, '$.states')
      WHERE key IN ('Sent', 'Delivered', 'Failed')
      ON CONFLICT (device_id, bucket, event) DO UPDATE SET count = count + 1;
  END;
  CREATE TRIGGER messages_device_count_update AFTER UPDATE OF body ON messages WHEN new.device_id IS NOT NULL BEGIN
    INSERT INTO device_event_counts (device_id, bucket, event, count)
      SELECT new.device_id, value - value % 900000, lower(key), 1 FROM json_each(new.body, '$.states')
      WHERE key IN ('Sent', 'Delivered', 'Failed') AND json_extract(old.body, '$.states.' || key) IS NULL
      ON CONFLICT (device_id, bucket, event) DO UPDATE SET count = count + 1;
  END;
  CREATE TRIGGER inbox_device_count_insert AFTER INSERT ON inbox BEGIN
    INSERT INTO device_event_counts (device_id, bucket, event, count)
      VALUES (new.device_id, new.received_at - new.received_at % 900000, 'received', 1)
      ON CONFLICT (device_id, bucket, event) DO UPDATE SET count = count + 1;
  END;
  `,
  // The desk (server/services/desk/): address book, templates and campaigns.
  `
  CREATE TABLE desk_contacts (
    id TEXT PRIMARY KEY,
    phone_number TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    notes TEXT NOT NULL,
    search TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX desk_contacts_by_name ON desk_contacts (name COLLATE NOCASE, phone_number);
  CREATE TABLE desk_groups (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE
  );
  CREATE TABLE desk_memberships (
    group_id TEXT NOT NULL,
    contact_id TEXT NOT NULL,
    PRIMARY KEY (group_id, contact_id)
  ) WITHOUT ROWID;
  CREATE INDEX desk_memberships_by_contact ON desk_memberships (contact_id);

  CREATE TABLE desk_templates (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    text TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );

  CREATE TABLE desk_campaigns (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX desk_campaigns_by_time ON desk_campaigns (created_at);
  CREATE TABLE desk_campaign_messages (
    campaign_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    PRIMARY KEY (campaign_id, message_id)
  ) WITHOUT ROWID;
  `,
  `
  -- The desk, part two (docs/desk.md "Conversations", "Opt-out", "Auto-reply rules").
  -- One row per message and party: an outgoing message to three numbers is in three threads.
  -- Filled from messages and inbox after their rowid cursor (server/services/desk/conversations/), so
  -- a thread is read by (peer, at) without looking at the history.
  CREATE TABLE desk_thread_items (
    peer TEXT NOT NULL,
    at INTEGER NOT NULL,
    direction TEXT NOT NULL,
    item_id TEXT NOT NULL,
    PRIMARY KEY (direction, item_id, peer)
  ) WITHOUT ROWID;
  CREATE INDEX desk_thread_items_by_peer ON desk_thread_items (peer, at);
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
  CREATE INDEX desk_conversations_by_time ON desk_conversations (archived, last_at);
  CREATE TABLE desk_index_cursors (
    source TEXT PRIMARY KEY,
    last_rowid INTEGER NOT NULL
  );
  CREATE TABLE desk_opt_outs (
    number TEXT PRIMARY KEY,
    added_at INTEGER NOT NULL,
    source TEXT NOT NULL
  );
  CREATE INDEX desk_opt_outs_by_time ON desk_opt_outs (added_at);
  -- Loop protection: when each rule last answered each sender.
  CREATE TABLE desk_rule_replies (
    rule_id TEXT NOT NULL,
    sender TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (rule_id, sender)
  ) WITHOUT ROWID;
  `,
  // The chart's count triggers, unchanged except for a WHEN that skips the JSON when the body
  // cannot hold a counted state. Bodies are JSON.stringify's, which writes a key as "Sent"
  // verbatim, so a body without any of the three strings has none of the keys; a body with one
  // (in its text, say) runs the exact statement as before.
  stateCountTriggers(mayHoldCountedState, ['Sent', 'Delivered', 'Failed']),
  `
  -- The search indexes merge their segments 16 at a time instead of FTS5's default 4. Each group
  -- commit writes a small segment, and merging them four by four rewrote every posting at each
  -- of many levels: with a large store the merges were most of a commit's cost and of the WAL it
  -- wrote, and held the POST tail up. A search reads the extra segments in about the same time.
  -- The setting is stored with each index.
  INSERT INTO messages_search (messages_search, rank) VALUES ('automerge', 16);
  INSERT INTO inbox_search (inbox_search, rank) VALUES ('automerge', 16);
  `,
  // Each search index becomes two whose answers are exact and come in time order, so a search
  // reads no row to check or sort its matches (searchIndex.ts). The step indexes every stored row
  // again, which takes a while on a large store (docs/storage.md).
  searchIndexStep('messages') + searchIndexStep('inbox'),
  // The number indexes keep a column list per match (detail = column): FTS5 then merges a prefix
  // query's doclists 16 at a time instead of two by two: a number search is faster, for a larger
  // index (searchIndex.ts).
  digitsIndexStep('messages') + digitsIndexStep('inbox'),
  // A message's text can change (a scheduled one's, edited): its search indexes follow. Only
  // messages: a received message never changes.
  searchUpdateStep('messages'),
  // Each message's API view is stored beside its record (`storedMessageView`,
  // legacyMessageRows.ts), so that a page of messages is not rendered on the event loop; step
  // 23 drops it again, once pages are read on threads of their own. The step writes every
  // stored message's view.
  `
  ALTER TABLE messages ADD COLUMN view TEXT NOT NULL DEFAULT '';
  ALTER TABLE messages ADD COLUMN view_content TEXT NOT NULL DEFAULT '';
  UPDATE messages SET view = message_view(body), view_content = message_view_content(body);
  `,
  // GET /health's `messages:failed` counts the messages that failed in the last hour: through
  // these per-minute counts it reads about 60 rows, and the index only for the minute the hour
  // starts in, instead of every failed message of the hour (`countFailedSince`). Failed is
  // final, so a message is counted once, when it reaches it, in the minute of its `state_at`; a
  // new failure drops the minutes more than an hour before its own, so the table holds an hour. The step counts the stored failures of the hour before the
  // newest one.
  `
  CREATE TABLE failed_minutes (
    minute INTEGER PRIMARY KEY,
    count INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO failed_minutes (minute, count)
    SELECT ${minuteOf('state_at')}, count(*) FROM messages
    WHERE state = 'Failed' AND state_at >= (SELECT max(state_at) FROM messages WHERE state = 'Failed') - 3660000
    GROUP BY 1;
  ${countFailureTrigger('messages_failed_insert', 'INSERT')}
  ${countFailureTrigger('messages_failed_update', 'UPDATE OF state', "AND old.state <> 'Failed'")}
  `,
  // GET /devices names, per modem, the messages sent over an hour ago that still wait for their
  // delivery report (`awaitingReports`); every screen of the UI reads it. It read the record of
  // every waiting message, and many wait exactly when the warning matters: reports stopped
  // arriving. These counts per minute of `state_at` and modem hold the messages now Sent that
  // asked for a report, at the cost of one JSON read when a message enters Sent and one when it
  // leaves.
  `
  CREATE TABLE awaiting_report_minutes (
    minute INTEGER NOT NULL,
    device_id TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (minute, device_id)
  ) WITHOUT ROWID;
  INSERT INTO awaiting_report_minutes (minute, device_id, count)
    SELECT ${minuteOf('state_at')}, device_id, count(*) FROM messages
    WHERE ${awaitsReport('messages', flagInRecord)} GROUP BY 1, 2;
  ${awaitingTriggers(flagInRecord)}
  `,
  // Who did what through the API (store/auditTrail.ts): one row per change a person or an app
  // made, found by what it changed (a message, a contact, a campaign…) and listed newest first.
  `
  CREATE TABLE audit_events (
    seq INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    actor_id TEXT NOT NULL,
    actor_name TEXT NOT NULL,
    action TEXT NOT NULL,
    summary TEXT NOT NULL,
    subject TEXT NOT NULL,
    fields TEXT NOT NULL
  );
  CREATE INDEX audit_events_subject ON audit_events (subject, seq);
  CREATE INDEX audit_events_actor ON audit_events (actor_id, seq);
  `,
  // A message's failed recipients are counted in its row, so the desk's Failed filter finds a
  // Sent message with one through an index, and the dashboard counts its failure
  // (recipientFailures.ts). The step reads the records that mention "Failed".
  recipientFailuresStep(mayHoldCountedState),
  // Searches ignore accents as well as case: the stored searched texts are folded as the needle
  // is (`foldText`), and the indexes follow (searchIndex.ts).
  foldedSearchStep(),
  // Each fact of a message is stored once: `body` keeps only what the columns and the stored
  // view do not hold (messageRecordColumns.ts), a third of what it held. The waiting-for-report
  // triggers read the flag from the view; the step rewrites every stored message's body.
  `
  DROP TRIGGER messages_awaiting_insert;
  DROP TRIGGER messages_awaiting_enter;
  DROP TRIGGER messages_awaiting_leave;
  DROP TRIGGER messages_awaiting_delete;
  ${awaitingTriggers(flagInView)}
  UPDATE messages SET body = message_own_fields(body);
  `,
  // A thread's items are keyed by the order a thread is read in (peer, newest first), so the
  // table needs no second index by peer: each item is stored once instead of twice. An item's
  // time never changes (a message's creation, a received one's arrival), so the key still
  // files an item under a party once. The step copies the items into the new table.
  `
  CREATE TABLE desk_thread_items_by_time (
    peer TEXT NOT NULL,
    at INTEGER NOT NULL,
    direction TEXT NOT NULL,
    item_id TEXT NOT NULL,
    PRIMARY KEY (peer, at DESC, direction, item_id)
  ) WITHOUT ROWID;
  INSERT INTO desk_thread_items_by_time (peer, at, direction, item_id)
    SELECT peer, at, direction, item_id FROM desk_thread_items;
  DROP TABLE desk_thread_items;
  ALTER TABLE desk_thread_items_by_time RENAME TO desk_thread_items;
  `,
  // A message's stored view leaves its id and device to the row's columns. The step removes
  // them from every stored view.
  `
  UPDATE messages SET view = json_remove(view, '$.id', '$.deviceId');
  `,
  // What each SIM sent, for whom (store/sendLog.ts): one row per recipient handed to a modem, so
  // a SIM plan's period reads only that period's rows, and a reply finds the app that last wrote.
  `
  CREATE TABLE sends (
    device_id TEXT NOT NULL,
    sim INTEGER NOT NULL,
    at INTEGER NOT NULL,
    recipient TEXT NOT NULL,
    parts INTEGER NOT NULL,
    app_id TEXT NOT NULL
  );
  CREATE INDEX sends_by_sim ON sends (device_id, sim, at);
  CREATE INDEX sends_by_recipient ON sends (recipient, at);
  CREATE INDEX sends_by_time ON sends (at);
  `,
  // The search indexes are keyed by the rows' own rowids, whose gaps take a byte where a key of
  // time and rowid took five or six; the few rows stored out of time order are listed beside
  // them (searchIndex.ts). The step indexes every stored row again (docs/storage.md).
  rowidKeyStep('messages') + rowidKeyStep('inbox'),
  // The state times leave each stored view: the record in `body` holds them in ms. The step
  // removes them from every stored view.
  `
  UPDATE messages SET view = json_remove(view, '$.states');
  `,
  // A conversation is keyed by its party alone (no rowid, so no second b-tree for the key), and
  // keeps only what its thread does not hold: the direction and text of its last message are
  // read from the thread's newest item and that message (ConversationStore), for the page of
  // conversations shown. The step copies the conversations into the new table.
  `
  CREATE TABLE desk_conversations_by_peer (
    peer TEXT PRIMARY KEY,
    last_at INTEGER NOT NULL,
    reply_device_id TEXT,
    reply_sim_number INTEGER,
    unread INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;
  INSERT INTO desk_conversations_by_peer (peer, last_at, reply_device_id, reply_sim_number, unread, archived)
    SELECT peer, last_at, reply_device_id, reply_sim_number, unread, archived FROM desk_conversations;
  DROP TABLE desk_conversations;
  ALTER TABLE desk_conversations_by_peer RENAME TO desk_conversations;
  CREATE INDEX desk_conversations_by_time ON desk_conversations (archived, last_at);
  `,
  // A message's row holds its record once: `body` takes in what the stored view held (the
  // recipients' numbers and failures, the content, the flags that are not at their default), and
  // pages render each view from the row on the page reader's threads (pagedRecords.ts). The
  // waiting-for-report triggers read the flag from `body`; the step rewrites every stored
  // message's body and drops the view's columns, which no index or trigger reads then. The
  // columns are emptied by the same write: each row shrinks where it lies, where a longer body
  // first would split pages that the drop then leaves part empty.
  `
  DROP TRIGGER messages_awaiting_insert;
  DROP TRIGGER messages_awaiting_enter;
  DROP TRIGGER messages_awaiting_leave;
  DROP TRIGGER messages_awaiting_delete;
  ${awaitingTriggers(flagInBody)}
  UPDATE messages SET body = message_body(id, created_at, seq, state, device_id, body, view, view_content),
    view = '', view_content = '';
  ALTER TABLE messages DROP COLUMN view;
  ALTER TABLE messages DROP COLUMN view_content;
  `,
  // The waiting queue leaves memory: a narrow table of the Pending rows, kept by triggers, read a
  // window at a time in queue order (waitingQueue.ts). The step files every Pending row.
  waitingQueueStep,
  // Verification codes (services/verify/): the code only as its keyed hash, the wrong guesses
  // counted, found by id and by number for the per-number limits.
  `
  CREATE TABLE verifications (
    id TEXT PRIMARY KEY,
    app_id TEXT,
    phone_number TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    wrong_attempts INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    message_id TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX verifications_by_number ON verifications (phone_number, created_at);
  `,
  // MMS attachments (store/sqlite/messageAttachments.ts): their bytes beside the message's row,
  // never in it, and gone with it when retention removes the message.
  `
  CREATE TABLE message_attachments (
    message_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    name TEXT,
    data BLOB NOT NULL,
    PRIMARY KEY (message_id, position)
  ) WITHOUT ROWID;
  CREATE TRIGGER message_attachments_follow AFTER DELETE ON messages BEGIN
    DELETE FROM message_attachments WHERE message_id = old.id;
  END;
  `,
];

/**
 * A row that waits for its delivery report: Sent by a modem, asked for one. The state comes
 * first, so the JSON that holds the flag is read only for Sent rows.
 */
function awaitsReport(row: string, flag: ReportFlag): string {
  return `(${row}.state = 'Sent' AND ${row}.device_id IS NOT NULL AND ${row}.state_at IS NOT NULL
    AND ${flag(row)})`;
}

/** The triggers that keep `awaiting_report_minutes`, reading the flag as `flag` does. */
function awaitingTriggers(flag: ReportFlag): string {
  return `
  CREATE TRIGGER messages_awaiting_insert AFTER INSERT ON messages WHEN ${awaitsReport('new', flag)} BEGIN
    ${countAwaiting('new', 1)}
  END;
  CREATE TRIGGER messages_awaiting_enter AFTER UPDATE OF state ON messages WHEN ${awaitsReport('new', flag)} BEGIN
    ${countAwaiting('new', 1)}
  END;
  CREATE TRIGGER messages_awaiting_leave AFTER UPDATE OF state ON messages WHEN ${awaitsReport('old', flag)} BEGIN
    ${countAwaiting('old', -1)}
  END;
  CREATE TRIGGER messages_awaiting_delete AFTER DELETE ON messages WHEN ${awaitsReport('old', flag)} BEGIN
    ${countAwaiting('old', -1)}
  END;`;
}

/** Adds `delta` to the count of `row`'s minute and modem; a count that reaches 0 goes. */
function countAwaiting(row: string, delta: 1 | -1): string {
  const key = `${minuteOf(`${row}.state_at`)}, ${row}.device_id`;
  return `INSERT INTO awaiting_report_minutes (minute, device_id, count) VALUES (${key}, ${delta})
      ON CONFLICT (minute, device_id) DO UPDATE SET count = count + ${delta};
    DELETE FROM awaiting_report_minutes WHERE (minute, device_id) = (${key}) AND count = 0;`;
}

/** The minute of a time in ms (`Math.floor(ms / 60000)` for the times a clock gives). */
function minuteOf(column: string): string {
  return `CAST(${column} / 60000 AS INTEGER)`;
}

/** A trigger that counts a message reaching Failed in its minute and drops the minutes before the hour. */
function countFailureTrigger(name: string, event: string, condition = ''): string {
  return `
  CREATE TRIGGER ${name} AFTER ${event} ON messages
  WHEN new.state = 'Failed' AND new.state_at IS NOT NULL ${condition} BEGIN
    INSERT INTO failed_minutes (minute, count) VALUES (${minuteOf('new.state_at')}, 1)
      ON CONFLICT (minute) DO UPDATE SET count = count + 1;
    DELETE FROM failed_minutes WHERE minute < ${minuteOf('new.state_at')} - 61;
  END;`;
}

export const schemaVersion = schemaSteps.length;

/** A message row's `body` as a SQL function receives it. */
function bodyText(body: unknown): string {
  if (typeof body !== 'string') throw new TypeError('a message row without a JSON body');
  return body;
}

/**
 * The SQL functions that schema step 11 writes the stored views with and step 17 the bodies,
 * from each row's whole record, and that step 24 writes each body with from the row of steps
 * 17 to 23 (legacyMessageRows.ts). Registered on the gateway's connection before the schema is
 * brought up to date.
 */
export function registerStoredViewFunctions(db: Database): void {
  // The step asks for a row's two columns in turn: its record is parsed once for both.
  let last: { body: string; stored: StoredMessageView } | undefined;
  const storedOf = (body: unknown): StoredMessageView => {
    const text = bodyText(body);
    if (last?.body !== text)
      last = { body: text, stored: storedMessageView(JSON.parse(text) as MessageRecord) };
    return last.stored;
  };
  db.function('message_view', (body: unknown) => storedOf(body).view);
  db.function('message_view_content', (body: unknown) => storedOf(body).content);
  db.function('message_own_fields', (body: unknown) =>
    legacyOwnFields(JSON.parse(bodyText(body)) as MessageRecord),
  );
  // SQLite takes a function's arity from its length: the eight columns, in the order above.
  db.function(
    'message_body',
    (
      id: unknown,
      created_at: unknown,
      seq: unknown,
      state: unknown,
      device_id: unknown,
      body: unknown,
      view: unknown,
      view_content: unknown,
    ) =>
      recordOwnFields(
        recordOfLegacyColumns({
          id: String(id),
          created_at: Number(created_at),
          seq: Number(seq),
          state: String(state) as LegacyMessageColumns['state'],
          device_id: device_id === null ? null : String(device_id),
          body: bodyText(body),
          view: String(view),
          view_content: String(view_content),
        }),
      ),
  );
}

/** The schema version `db` is at (0 for a new file). */
export function foundSchemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Brings the schema up to date in one transaction. */
export function migrateSchema(db: Database): void {
  const found = foundSchemaVersion(db);
  if (found > schemaVersion) {
    throw new GatewayError(
      ErrorCode.StoreNewerThanBuild,
      `the database has schema ${found}, newer than this build understands (${schemaVersion})`,
    );
  }
  db.transaction(() => {
    for (const step of schemaSteps.slice(found)) db.exec(step);
    db.pragma(`user_version = ${schemaVersion}`);
  })();
}
