import type { ConversationDirection } from '../../domain/desk.js';
import type { Page } from '../../store/repositories.js';
import type { GroupCommit } from '../../store/sqlite/groupCommit.js';
import type { Database, Statement } from '../../store/sqlite/sqlite.js';

export interface ConversationSummary {
  peer: string;
  lastAt: number;
  lastDirection: ConversationDirection;
  lastText: string;
  /** The modem and SIM the party last wrote to: where a reply is sent from. */
  replyDeviceId?: string;
  replySimNumber?: number;
  unread: number;
  archived: boolean;
}

export interface ThreadItemRef {
  direction: ConversationDirection;
  id: string;
  at: number;
}

interface ConversationRow {
  peer: string;
  last_at: number;
  last_direction: ConversationDirection;
  last_text: string;
  reply_device_id: string | null;
  reply_sim_number: number | null;
  unread: number;
  archived: number;
}

const columns =
  'peer, last_at, last_direction, last_text, reply_device_id, reply_sim_number, unread, archived';

/** Indexed reads and the read/archive marks of the conversations table. */
export class ConversationStore {
  private readonly selectOne: Statement<[string], ConversationRow>;
  private readonly selectPage: Statement<
    { archived: number; limit: number; offset: number },
    ConversationRow
  >;
  private readonly countPage: Statement<{ archived: number }, { total: number }>;
  private readonly selectItems: Statement<
    { peer: string; limit: number; offset: number },
    { direction: ConversationDirection; item_id: string; at: number }
  >;
  private readonly countItems: Statement<[string], { total: number }>;
  private readonly setUnread: Statement<{ peer: string; unread: number }>;
  private readonly setArchived: Statement<{ peer: string; archived: number }>;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
  ) {
    this.selectOne = db.prepare(`SELECT ${columns} FROM desk_conversations WHERE peer = ?`);
    this.selectPage = db.prepare(
      `SELECT ${columns} FROM desk_conversations WHERE archived = @archived
       ORDER BY last_at DESC LIMIT @limit OFFSET @offset`,
    );
    this.countPage = db.prepare(
      'SELECT count(*) AS total FROM desk_conversations WHERE archived = @archived',
    );
    this.selectItems = db.prepare(
      `SELECT direction, item_id, at FROM desk_thread_items WHERE peer = @peer
       ORDER BY at DESC, direction LIMIT @limit OFFSET @offset`,
    );
    this.countItems = db.prepare('SELECT count(*) AS total FROM desk_thread_items WHERE peer = ?');
    this.setUnread = db.prepare('UPDATE desk_conversations SET unread = @unread WHERE peer = @peer');
    this.setArchived = db.prepare('UPDATE desk_conversations SET archived = @archived WHERE peer = @peer');
  }

  get(peer: string): ConversationSummary | undefined {
    const row = this.selectOne.get(peer);
    return row && summaryOf(row);
  }

  /** Newest conversation first. */
  list(archived: boolean, limit: number, offset: number): Page<ConversationSummary> {
    const flag = archived ? 1 : 0;
    return {
      total: this.countPage.get({ archived: flag })?.total ?? 0,
      items: this.selectPage.all({ archived: flag, limit, offset }).map(summaryOf),
    };
  }

  /** Newest first. */
  items(peer: string, limit: number, offset: number): Page<ThreadItemRef> {
    return {
      total: this.countItems.get(peer)?.total ?? 0,
      items: this.selectItems
        .all({ peer, limit, offset })
        .map((row) => ({ direction: row.direction, id: row.item_id, at: row.at })),
    };
  }

  /** Unread 0 (read) or at least 1 (unread); false when there is no such conversation. */
  markUnread(peer: string, unread: boolean): Promise<boolean> {
    const current = this.selectOne.get(peer);
    if (!current) return Promise.resolve(false);
    const count = unread ? Math.max(current.unread, 1) : 0;
    return this.write(() => this.setUnread.run({ peer, unread: count }).changes);
  }

  archive(peer: string, archived: boolean): Promise<boolean> {
    return this.write(() => this.setArchived.run({ peer, archived: archived ? 1 : 0 }).changes);
  }

  private async write(change: () => number): Promise<boolean> {
    const { value, durable } = this.commits.write(change);
    await durable;
    return value > 0;
  }
}

function summaryOf(row: ConversationRow): ConversationSummary {
  return {
    peer: row.peer,
    lastAt: row.last_at,
    lastDirection: row.last_direction,
    lastText: row.last_text,
    ...(row.reply_device_id === null ? {} : { replyDeviceId: row.reply_device_id }),
    ...(row.reply_sim_number === null ? {} : { replySimNumber: row.reply_sim_number }),
    unread: row.unread,
    archived: row.archived === 1,
  };
}
