import type { IncomingAudience, IncomingRecord } from '../contract/domain/incoming.js';
import { foldText } from '../contract/domain/textFold.js';
import type { InboxQuery, InboxRepository, Page } from './repositories.js';
import { chunkedDelete } from './sqlite/chunkedDelete.js';
import type { GroupCommit } from './sqlite/groupCommit.js';
import { HistoryFilter } from './sqlite/historyFilter.js';
import { keptRowCount, pageRead } from './sqlite/pagedRecords.js';
import type { PageReader } from './sqlite/pageReader.js';
import { normaliseNeedle } from './sqlite/queryFilter.js';
import type { Database, Statement } from './sqlite/sqlite.js';
import { StatementCache } from './sqlite/statementCache.js';

interface InboxRow {
  id: string;
  received_at: number;
  type: string;
  device_id: string;
  search: string;
  body: string;
}

/** Received messages, newest first by `receivedAt` (then by arrival). */
export class SqliteInboxRepository implements InboxRepository {
  private readonly queries: StatementCache;
  private readonly insertRow: Statement<InboxRow>;
  private readonly selectBody: Statement<[string], { body: string }>;
  /** Rows in the table, kept up to date: the total of an unfiltered page without a full count. */
  private total: number;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
    private readonly pages: PageReader,
  ) {
    this.queries = new StatementCache(db);
    this.insertRow = db.prepare(
      `INSERT OR IGNORE INTO inbox (id, received_at, type, device_id, search, body)
       VALUES (@id, @received_at, @type, @device_id, @search, @body)`,
    );
    this.selectBody = db.prepare('SELECT body FROM inbox WHERE id = ?');
    this.total = keptRowCount(this.queries, 'inbox');
    commits.onRollback(() => {
      this.total = keptRowCount(this.queries, 'inbox');
    });
  }

  /**
   * The id is derived from the content (docs/decisions.md#inbox), so a message the modem reports twice (after
   * a restart, or read from SIM storage and then by +CMTI) is stored once. Resolves only once
   * the stored copy is durable, even when it was stored by an earlier, still uncommitted call:
   * the caller deletes the message from the SIM next.
   */
  async insert(record: IncomingRecord, inCommit?: () => void): Promise<boolean> {
    const { value, durable } = this.commits.write(() => this.insertRow.run(incomingRow(record)).changes);
    this.total += value;
    // Same turn, same batch: the group commit has not flushed since the row was written.
    if (value > 0) inCommit?.();
    await durable;
    return value > 0;
  }

  get(id: string): IncomingRecord | undefined {
    const row = this.selectBody.get(id);
    return row && (JSON.parse(row.body) as IncomingRecord);
  }

  async list(query: InboxQuery): Promise<Page<IncomingRecord>> {
    const filter = new HistoryFilter('inbox')
      .period(query.from, query.to)
      .when('type', query.type, 'type = @type')
      .when('device', query.deviceId, 'device_id = @device')
      .search(normaliseNeedle(query.search));
    if (query.audience) heardBy(filter, query.audience);
    const { total, json } = await this.pages.read(
      pageRead(filter, {
        orderBy: 'received_at DESC, rowid DESC',
        newestFirst: true,
        keptTotal: this.total,
        limit: query.limit,
        offset: query.offset,
        items: { kind: 'records' },
      }),
    );
    return { total, items: JSON.parse(json) as IncomingRecord[] };
  }

  async pruneOlderThan(before: number): Promise<number> {
    const deleted = await chunkedDelete(
      this.commits,
      this.queries.get(
        'DELETE FROM inbox WHERE rowid IN (SELECT rowid FROM inbox WHERE received_at < @before LIMIT @chunk)',
      ),
      { before },
    );
    this.total -= deleted;
    return deleted;
  }

  count(): number {
    return this.total;
  }
}

/** Narrows the filter to the messages the audience sees (`audienceHears`, in SQL). */
function heardBy(filter: HistoryFilter, audience: IncomingAudience): void {
  switch (audience.kind) {
    case 'everything':
      return;
    case 'nothing':
      filter.provided(true, '0');
      return;
    case 'devices':
      // The modem narrows by its index; the slot, where a target names one, is read from the row.
      filter.when(
        'audienceTargets',
        JSON.stringify(audience.targets),
        `device_id IN (SELECT value ->> '$.deviceId' FROM json_each(@audienceTargets))
         AND EXISTS (SELECT 1 FROM json_each(@audienceTargets) AS target
           WHERE target.value ->> '$.deviceId' = device_id
             AND (target.value ->> '$.simNumber' IS NULL OR target.value ->> '$.simNumber' = body ->> '$.simNumber'))`,
      );
      return;
    case 'replies':
      // The app's replies are few next to the inbox: read from the rows, no column of their own.
      filter.when('repliesTo', audience.appId, "json_extract(body, '$.repliesTo') = @repliesTo");
      return;
  }
}

/** The row of a received message: its JSON plus the columns queries filter and order by. */
export function incomingRow(record: IncomingRecord): InboxRow {
  // What ?search= looks in: the sender, and the text of an SMS (not the Base64 of data).
  const text = record.type === 'SMS' ? record.content : '';
  return {
    id: record.id,
    received_at: record.receivedAt,
    type: record.type,
    device_id: record.deviceId,
    search: foldText(`${record.sender}\n${text}`),
    body: JSON.stringify(record),
  };
}
