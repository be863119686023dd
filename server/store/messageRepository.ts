import type { MessageRecord, MessageState, MmsAttachment } from '../contract/domain/message.js';
import type { ProcessingOrder } from '../contract/domain/messageOrder.js';
import { assignedDeviceId } from '../contract/domain/messageView.js';
import { shownText } from '../contract/domain/shownText.js';
import { foldText } from '../contract/domain/textFold.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type {
  AwaitingReports,
  HandOver,
  ListedMessages,
  MessageListForm,
  MessageQuery,
  MessageRepository,
  WaitingDeadlines,
  WaitingEntry,
} from './repositories.js';
import { chunkedDelete } from './sqlite/chunkedDelete.js';
import type { GroupCommit } from './sqlite/groupCommit.js';
import { HistoryFilter } from './sqlite/historyFilter.js';
import { MessageAttachmentRows } from './sqlite/messageAttachments.js';
import {
  type MessageRecordColumns,
  recordColumns,
  recordOfColumns,
  recordOwnFields,
} from './sqlite/messageRecordColumns.js';
import { keptRowCount, pageRead } from './sqlite/pagedRecords.js';
import type { PageReader } from './sqlite/pageReader.js';
import { normaliseNeedle } from './sqlite/queryFilter.js';
import { failedRecipientCount } from './sqlite/recipientFailures.js';
import { flagInBody } from './sqlite/schema.js';
import { type Database, isUniqueViolation, type Statement } from './sqlite/sqlite.js';
import { StatementCache } from './sqlite/statementCache.js';
import { waitingKeyColumn } from './sqlite/waitingQueue.js';

/**
 * Pending and Processed messages are still in the gateway's hands (queued or at a modem), so
 * retention never removes them, however old. The Processed ones, one per busy modem, are read at
 * every answer and held in memory; the queue is read from its own table a page at a time
 * (waitingQueue.ts), so memory stays flat however long it grows. Every other message is read
 * from the database.
 */
const inHandStates: readonly MessageState[] = ['Pending', 'Processed'];
const heldStates: readonly MessageState[] = ['Processed'];
const minuteMs = 60_000;

interface MessageRow {
  id: string;
  created_at: number;
  seq: number;
  state: MessageState;
  state_at: number | null;
  device_id: string | null;
  search: string;
  body: string;
  failed_recipients: number;
}

type Changed = [
  state: MessageState,
  stateAt: number | null,
  deviceId: string | null,
  failedRecipients: number,
  search: string,
  body: string,
];
type InsertedRow = [id: string, createdAt: number, seq: number, ...changed: Changed];
type UpdatedRow = [...changed: Changed, id: string];

function changedColumns(row: MessageRow): Changed {
  return [row.state, row.state_at, row.device_id, row.failed_recipients, row.search, row.body];
}

function insertedRow(row: MessageRow): InsertedRow {
  return [row.id, row.created_at, row.seq, ...changedColumns(row)];
}

function updatedRow(row: MessageRow): UpdatedRow {
  return [...changedColumns(row), row.id];
}

export class SqliteMessageRepository implements MessageRepository {
  private readonly held = new Map<MessageState, Map<string, MessageRecord>>(
    heldStates.map((state) => [state, new Map()]),
  );
  private readonly queries: StatementCache;
  /** See `pendingRevision`. */
  private queueRevision = 0;
  /** Positional: the binding reads a named parameter from its object one property at a time. */
  private readonly insertRow: Statement<InsertedRow>;
  private readonly updateRow: Statement<UpdatedRow>;
  private readonly selectRecord: Statement<[string], MessageRecordColumns>;
  private readonly countState: Statement<[string], { total: number }>;
  private readonly selectHighestSequence: Statement<[]>;
  private readonly selectWaitingId: Statement<[string]>;
  private readonly attachments: MessageAttachmentRows;
  /** Rows in the table, kept up to date: the total of an unfiltered page without a full count. */
  private total = 0;
  /** Rows in the waiting queue, kept up to date: checked at every POST against --max-pending. */
  private waitingTotal = 0;

  constructor(
    private readonly db: Database,
    private readonly commits: GroupCommit,
    private readonly pages: PageReader,
  ) {
    this.queries = new StatementCache(db);
    this.attachments = new MessageAttachmentRows(db);
    this.insertRow = db.prepare(
      `INSERT INTO messages (id, created_at, seq, state, state_at, device_id, failed_recipients, search, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // A scheduled message's text can be edited: `search` is written again, and its indexes
    // follow only when it changed (schema step 10).
    this.updateRow = db.prepare(
      `UPDATE messages SET state = ?, state_at = ?, device_id = ?, failed_recipients = ?, search = ?,
         body = ?
       WHERE id = ?`,
    );
    this.selectRecord = db.prepare(`SELECT ${recordColumns()} FROM messages WHERE id = ?`);
    this.countState = db.prepare('SELECT count(*) AS total FROM messages WHERE state = ?');
    this.selectHighestSequence = db.prepare(
      `SELECT max(seq) AS seq FROM (
         SELECT seq FROM (SELECT seq FROM messages ORDER BY rowid DESC LIMIT 1)
         UNION ALL
         SELECT seq FROM (SELECT seq FROM messages ORDER BY created_at DESC, seq DESC LIMIT 1))`,
    );
    this.selectWaitingId = db.prepare('SELECT 1 AS found FROM waiting WHERE id = ?');
    this.reload();
    // A failed commit rolled back writes the maps and the total already hold: read them again.
    commits.onRollback(() => this.reload());
  }

  insert(record: MessageRecord, attachments: readonly MmsAttachment[] = []): Promise<void> {
    const row = messageRow(record);
    let durable: Promise<void>;
    try {
      durable = this.commits.write(() => {
        this.insertRow.run(...insertedRow(row));
        this.attachments.insert(record.id, attachments);
      }).durable;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return Promise.reject(
          new GatewayError(ErrorCode.Conflict, `message ${record.id} already exists`, { field: 'id' }),
        );
      }
      return Promise.reject(error);
    }
    this.total++;
    if (record.state === 'Pending') this.queued();
    // Only a message at a modem is held, as a copy detached from the caller's object.
    if (this.held.has(record.state)) this.remember(detachedCopy(record));
    return durable;
  }

  attachmentsOf(id: string): MmsAttachment[] {
    return this.attachments.read(id);
  }

  update(record: MessageRecord, inCommit?: () => void): Promise<void> {
    const row = messageRow(record);
    const wasPending = this.isPending(record.id);
    let written: { value: number; durable: Promise<void> };
    try {
      written = this.commits.write(() => this.updateRow.run(...updatedRow(row)).changes);
    } catch (error) {
      return Promise.reject(error);
    }
    if (written.value === 0) {
      return Promise.reject(new GatewayError(ErrorCode.NotFound, `message ${record.id} not found`));
    }
    this.forget(record.id);
    if (wasPending) this.waitingTotal--;
    if (record.state === 'Pending') this.queued();
    if (this.held.has(record.state)) this.remember(detachedCopy(record));
    inCommit?.();
    return written.durable;
  }

  get(id: string): MessageRecord | undefined {
    for (const records of this.held.values()) {
      const record = records.get(id);
      if (record) return record;
    }
    const row = this.selectRecord.get(id);
    return row && recordOfColumns(row);
  }

  async list(query: MessageQuery, form: MessageListForm): Promise<ListedMessages> {
    const filter = new HistoryFilter('messages')
      .period(query.from, query.to)
      .when('state', query.state, 'state = @state')
      .when('device', query.deviceId, 'device_id = @device')
      .when('app', query.appId, "json_extract(body, '$.appId') = @app")
      // A literal bound, so that the partial index of these rows serves it (schema step 15).
      .provided(query.anyRecipientFailed === true, 'failed_recipients > 0')
      .search(normaliseNeedle(query.search));
    return this.pages.read(
      pageRead(filter, {
        orderBy: query.oldestFirst ? 'created_at ASC, seq ASC' : 'created_at DESC, seq DESC',
        newestFirst: !query.oldestFirst,
        keptTotal: this.total,
        limit: query.limit,
        offset: query.offset,
        items: { kind: 'messageViews', ...form },
      }),
    );
  }

  waiting(order: ProcessingOrder, now: number, limit: number, after?: string): WaitingEntry[] {
    const key = waitingKeyColumn(order);
    const rows = this.queries
      .get(
        `SELECT w.${key} AS key, ${recordColumns('m.')} FROM waiting AS w JOIN messages AS m ON m.id = w.id
         WHERE w.${key} > @after AND (w.schedule_at IS NULL OR w.schedule_at <= @now)
           AND (w.valid_until IS NULL OR w.valid_until > @now)
         ORDER BY w.${key} LIMIT @limit`,
      )
      .all({ after: after ?? '', now, limit }) as (MessageRecordColumns & { key: string })[];
    return rows.map((row) => ({ key: row.key, record: recordOfColumns(row) }));
  }

  expiredWaiting(now: number): MessageRecord[] {
    const rows = this.queries
      .get(
        `SELECT ${recordColumns('m.')} FROM waiting AS w JOIN messages AS m ON m.id = w.id
         WHERE w.valid_until IS NOT NULL AND w.valid_until <= @now`,
      )
      .all({ now }) as MessageRecordColumns[];
    return rows.map(recordOfColumns);
  }

  waitingDeadlines(now: number): WaitingDeadlines {
    const row = this.queries
      .get(
        `SELECT (SELECT min(valid_until) FROM waiting WHERE valid_until IS NOT NULL) AS nextExpiry,
           (SELECT min(schedule_at) FROM waiting WHERE schedule_at IS NOT NULL AND schedule_at > @now)
             AS nextScheduled`,
      )
      .get({ now }) as { nextExpiry: number | null; nextScheduled: number | null };
    return {
      nextExpiry: row.nextExpiry ?? Number.POSITIVE_INFINITY,
      nextScheduled: row.nextScheduled ?? Number.POSITIVE_INFINITY,
    };
  }

  pendingRevision(): number {
    return this.queueRevision;
  }

  isPending(id: string): boolean {
    return this.selectWaitingId.get(id) !== undefined;
  }

  inState(state: MessageState, since?: number): MessageRecord[] {
    const held = this.held.get(state);
    if (held) {
      const records = [...held.values()];
      return since === undefined ? records : records.filter((record) => (record.states[state] ?? 0) >= since);
    }
    const rows = (
      since === undefined
        ? this.queries.get(`SELECT ${recordColumns()} FROM messages WHERE state = @state`).all({ state })
        : this.queries
            .get(`SELECT ${recordColumns()} FROM messages WHERE state = @state AND state_at >= @since`)
            .all({ state, since })
    ) as MessageRecordColumns[];
    return rows.map(recordOfColumns);
  }

  handOversBetween(after: number, before: number): HandOver[] {
    // A message's latest state is no older than its hand-over: `state_at` bounds the rows read.
    // `device_id` is the modem that took it unless `body` marks it as only asked for.
    return this.queries
      .get(
        `SELECT deviceId, at FROM (
           SELECT iif(json_type(body, '$.deviceId') IS NULL, device_id, NULL) AS deviceId,
             json_extract(body, '$.states.Processed') AS at
           FROM messages WHERE state IN ('Processed', 'Sent', 'Delivered', 'Failed') AND state_at > @after)
         WHERE deviceId IS NOT NULL AND at > @after AND at < @before`,
      )
      .all({ after, before }) as HandOver[];
  }

  awaitingReports(sentFrom: number, sentBefore: number): AwaitingReports[] {
    // The whole minutes between the two ends from the kept counts (schema step 13); the parts
    // of the minutes the ends fall in, and the oldest send, from the Sent rows of those minutes.
    const firstWhole = Math.floor(sentFrom / minuteMs) + 1;
    const afterWhole = Math.floor(sentBefore / minuteMs);
    if (firstWhole >= afterWhole) return this.awaitingBetween(sentFrom, sentBefore);
    const byDevice = new Map<string, AwaitingReports>();
    const add = (rows: readonly AwaitingReports[]) => {
      for (const row of rows) {
        const known = byDevice.get(row.deviceId);
        byDevice.set(
          row.deviceId,
          known
            ? {
                ...known,
                count: known.count + row.count,
                oldestSentAt: Math.min(known.oldestSentAt, row.oldestSentAt),
              }
            : row,
        );
      }
    };
    add(this.awaitingBetween(sentFrom, firstWhole * minuteMs));
    add(this.awaitingBetween(afterWhole * minuteMs, sentBefore));
    const whole = this.queries
      .get(
        `SELECT device_id AS deviceId, sum(count) AS count, min(minute) AS oldestMinute FROM awaiting_report_minutes
         WHERE minute >= @firstWhole AND minute < @afterWhole GROUP BY device_id`,
      )
      .all({ firstWhole, afterWhole }) as { deviceId: string; count: number; oldestMinute: number }[];
    for (const { deviceId, count, oldestMinute } of whole) {
      const known = byDevice.get(deviceId);
      const oldest = this.awaitingBetween(oldestMinute * minuteMs, (oldestMinute + 1) * minuteMs, deviceId);
      const oldestSentAt = Math.min(
        known?.oldestSentAt ?? Number.POSITIVE_INFINITY,
        oldest[0]?.oldestSentAt ?? oldestMinute * minuteMs,
      );
      byDevice.set(deviceId, { deviceId, count: count + (known?.count ?? 0), oldestSentAt });
    }
    return [...byDevice.values()];
  }

  /** `awaitingReports` from the rows themselves, for a span of at most a minute or two. */
  private awaitingBetween(sentFrom: number, sentBefore: number, deviceId?: string): AwaitingReports[] {
    // Through messages_by_state_time: only the Sent rows of the span are read.
    return this.queries
      .get(
        `SELECT device_id AS deviceId, count(*) AS count, min(state_at) AS oldestSentAt FROM messages
         WHERE state = 'Sent' AND state_at >= @sentFrom AND state_at < @sentBefore
           AND device_id IS NOT NULL AND (@deviceId IS NULL OR device_id = @deviceId)
           AND ${flagInBody('messages')}
         GROUP BY device_id`,
      )
      .all({ sentFrom, sentBefore, deviceId: deviceId ?? null }) as AwaitingReports[];
  }

  countInState(state: MessageState): number {
    if (state === 'Pending') return this.waitingTotal;
    return this.held.get(state)?.size ?? (this.countState.get(state) as { total: number }).total;
  }

  countFailedSince(since: number): number {
    // The kept counts of the whole minutes after `since` (schema step 12), and the index for
    // the part of its own minute that follows it.
    const minute = Math.floor(since / minuteMs);
    const row = this.queries
      .get(
        `SELECT (SELECT coalesce(sum(count), 0) FROM failed_minutes WHERE minute > @minute)
              + (SELECT count(*) FROM messages
                 WHERE state = 'Failed' AND state_at >= @since AND state_at < @minuteEnd) AS total`,
      )
      .get({ minute, since, minuteEnd: (minute + 1) * minuteMs }) as { total: number };
    return row.total;
  }

  count(): number {
    return this.total;
  }

  /** Read once per app and quota period (auth/appQuotas.ts): an index range on the creation time. */
  recipientsOfAppSince(appId: string, since: number): number {
    const row = this.queries
      .get(
        `SELECT coalesce(sum(json_array_length(body, '$.recipients')), 0) AS total FROM messages
         WHERE created_at >= @since AND json_extract(body, '$.appId') = @appId`,
      )
      .get({ since, appId }) as { total: number };
    return row.total;
  }

  /**
   * Messages are inserted in sequence order, so the row inserted last holds the highest one,
   * even after the PC's clock was set back (when the newest by `createdAt` does not). The newest
   * by `createdAt` covers rows moved in from the journals, which came in file order. Both are
   * one index step; `max(seq)` reads a whole index, which grows with the history.
   */
  highestSequence(): number {
    return (this.selectHighestSequence.get() as { seq: number | null }).seq ?? 0;
  }

  async pruneOlderThan(before: number): Promise<number> {
    const inHand = inHandStates.map((state) => `'${state}'`).join(', ');
    const deleted = await chunkedDelete(
      this.commits,
      this.queries.get(
        `DELETE FROM messages WHERE rowid IN (SELECT rowid FROM messages
           WHERE created_at < @before AND state NOT IN (${inHand}) LIMIT @chunk)`,
      ),
      { before },
    );
    this.total -= deleted;
    return deleted;
  }

  private reload(): void {
    this.total = keptRowCount(this.queries, 'messages');
    this.waitingTotal = (
      this.db.prepare('SELECT count(*) AS total FROM waiting').get() as { total: number }
    ).total;
    this.queueRevision++;
    for (const records of this.held.values()) records.clear();
    const rows = this.db
      .prepare(
        `SELECT ${recordColumns()} FROM messages WHERE state IN (${heldStates.map(() => '?').join(', ')})`,
      )
      .all(...heldStates) as MessageRecordColumns[];
    for (const row of rows) this.remember(recordOfColumns(row));
  }

  /** A write left a message Pending: one more in the queue's count, and a new queue revision. */
  private queued(): void {
    this.waitingTotal++;
    this.queueRevision++;
  }

  private remember(record: MessageRecord): void {
    this.held.get(record.state)?.set(record.id, record);
  }

  private forget(id: string): void {
    for (const records of this.held.values()) records.delete(id);
  }
}

/** A copy of `record` that shares no object with it, as reading it back from its row gives. */
function detachedCopy(record: MessageRecord): MessageRecord {
  return JSON.parse(JSON.stringify(record)) as MessageRecord;
}

/**
 * The row of a message: the columns queries filter and order by, and in `body` the rest of its
 * record (messageRecordColumns.ts).
 */
export function messageRow(record: MessageRecord): MessageRow {
  const numbers = record.recipients.map((recipient) => recipient.phoneNumber).join('\n');
  // A verification code is not searchable: the search shows only what the list shows.
  const { content } = record;
  const text =
    content.kind === 'text'
      ? shownText(record, content.text)
      : content.kind === 'mms'
        ? [content.subject, content.text].filter(Boolean).join('\n')
        : '';
  return {
    id: record.id,
    created_at: record.createdAt,
    seq: record.sequence,
    state: record.state,
    state_at: record.states[record.state] ?? null,
    // Null while no modem took it or was asked for: a page gives it the gateway's stand-in.
    device_id: assignedDeviceId(record) ?? null,
    failed_recipients: failedRecipientCount(record.recipients),
    // What ?search= looks in (UI search): the text and every recipient's number.
    search: foldText(`${text}\n${numbers}`),
    body: recordOwnFields(record),
  };
}
