import type { ConversationDirection } from '../../../contract/domain/desk.js';
import type { IncomingRecord } from '../../../contract/domain/incoming.js';
import type { MessageRecord } from '../../../contract/domain/message.js';
import type { PeerKey } from '../../../contract/domain/peerKey.js';
import type { CoreReads } from '../../../store/sqlite/coreReads.js';
import type { GroupCommit } from '../../../store/sqlite/groupCommit.js';
import type { Database, Statement } from '../../../store/sqlite/sqlite.js';

/** Rows read per step of a catch-up: one step stays a short pause of the event loop. */
const batchRows = 500;

type Source = 'messages' | 'inbox';

interface ItemRow {
  peer: string;
  at: number;
  direction: ConversationDirection;
  item_id: string;
}

interface ConversationChange {
  peer: string;
  at: number;
  device: string | null;
  sim: number | null;
  unread: number;
}

/**
 * Keeps the conversations (`desk_thread_items`, `desk_conversations`) in step with the
 * messages and inbox tables (read through `CoreReads`). It reads rows after a rowid cursor per table, so a catch-up costs
 * only what arrived since (at start: what arrived while it was not running, or the whole
 * history once, on the first start of a version with the desk). A row is indexed at most once
 * (the item's key), so reading one again after a crash changes nothing.
 */
export class ConversationIndex {
  private readonly selectCursor: Statement<[string], { last_rowid: number }>;
  private readonly saveCursor: Statement<{ source: string; rowid: number }>;
  private readonly insertItem: Statement<ItemRow>;
  private readonly upsertConversation: Statement<ConversationChange>;
  private readonly step: (source: Source) => number;

  constructor(
    /** The core's tables, read through their port. */
    private readonly core: CoreReads,
    db: Database,
    private readonly commits: GroupCommit,
    private readonly key: PeerKey,
  ) {
    this.selectCursor = db.prepare('SELECT last_rowid FROM desk_index_cursors WHERE source = ?');
    this.saveCursor = db.prepare(
      `INSERT INTO desk_index_cursors (source, last_rowid) VALUES (@source, @rowid)
       ON CONFLICT (source) DO UPDATE SET last_rowid = excluded.last_rowid`,
    );
    this.insertItem = db.prepare(
      `INSERT OR IGNORE INTO desk_thread_items (peer, at, direction, item_id)
       VALUES (@peer, @at, @direction, @item_id)`,
    );
    // A conversation keeps its newest time; its last direction and text are its thread's newest
    // item's (ConversationStore).
    this.upsertConversation = db.prepare(
      `INSERT INTO desk_conversations (peer, last_at, reply_device_id, reply_sim_number, unread, archived)
       VALUES (@peer, @at, @device, @sim, @unread, 0)
       ON CONFLICT (peer) DO UPDATE SET
         last_at = max(last_at, excluded.last_at),
         reply_device_id = coalesce(excluded.reply_device_id, reply_device_id),
         reply_sim_number = coalesce(excluded.reply_sim_number, reply_sim_number),
         unread = unread + excluded.unread,
         archived = CASE WHEN excluded.unread > 0 THEN 0 ELSE archived END`,
    );
    this.step = (source) => db.transaction(() => this.indexBatch(source))();
  }

  /**
   * Indexes every row after the cursors, a batch per turn of the event loop. Resolves once the
   * index has caught up and is durable.
   */
  async catchUp(): Promise<void> {
    for (const source of ['messages', 'inbox'] as const) {
      for (;;) {
        const { value: indexed, durable } = this.commits.write(() => this.step(source));
        await durable;
        if (indexed < batchRows) break;
      }
    }
  }

  /** One batch of one table; returns how many rows it read. */
  private indexBatch(source: Source): number {
    let after = this.selectCursor.get(source)?.last_rowid ?? 0;
    // Rowids are reused when the newest rows were deleted (retention of an idle gateway): start
    // again from the top; the items' keys keep anything from being counted twice.
    if (this.core.newestRowid(source) < after) after = 0;
    const rows =
      source === 'messages'
        ? this.core.messagesAfter(after, batchRows).map((row) => {
            this.indexOutgoing(row.record);
            return row;
          })
        : this.core.smsAfter(after, batchRows).map((row) => {
            this.indexIncoming(row.record);
            return row;
          });
    const last = rows.at(-1);
    if (last) this.saveCursor.run({ source, rowid: last.rowid });
    return rows.length;
  }

  private indexOutgoing(message: MessageRecord): void {
    // An end-to-end encrypted message's numbers are ciphertext: no party to file it under.
    if (message.isEncrypted) return;
    for (const recipient of message.recipients) {
      const peer = this.key(recipient.phoneNumber);
      const item: ItemRow = { peer, at: message.createdAt, direction: 'out', item_id: message.id };
      if (this.insertItem.run(item).changes === 0) continue;
      this.upsertConversation.run({ peer, at: message.createdAt, device: null, sim: null, unread: 0 });
    }
  }

  private indexIncoming(record: IncomingRecord): void {
    const peer = this.key(record.sender);
    const item: ItemRow = { peer, at: record.receivedAt, direction: 'in', item_id: record.id };
    if (this.insertItem.run(item).changes === 0) return;
    this.upsertConversation.run({
      peer,
      at: record.receivedAt,
      device: record.deviceId,
      sim: record.simNumber,
      unread: 1,
    });
  }
}
