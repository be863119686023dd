import type { ConversationDirection } from '../../../contract/domain/desk.js';
import type { Page } from '../../../store/repositories.js';
import type { CoreReads } from '../../../store/sqlite/coreReads.js';
import type { GroupCommit } from '../../../store/sqlite/groupCommit.js';
import { normaliseNeedle, QueryFilter } from '../../../store/sqlite/queryFilter.js';
import type { Database, Statement } from '../../../store/sqlite/sqlite.js';
import { StatementCache } from '../../../store/sqlite/statementCache.js';

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

export interface ConversationListQuery {
  archived: boolean;
  limit: number;
  offset: number;
  /** Digits of the party's number, or a piece of its contact's name, notes or number. */
  search?: string | undefined;
}

export interface ThreadItemRef {
  direction: ConversationDirection;
  id: string;
  at: number;
}

/** What a data message shows where a text message shows its text. */
export const dataMessageText = '[data message]';

interface ConversationRow {
  peer: string;
  last_at: number;
  /** The thread's newest item: every conversation has one, filed in the same commit. */
  last_direction: ConversationDirection;
  last_item_id: string;
  reply_device_id: string | null;
  reply_sim_number: number | null;
  unread: number;
  archived: number;
}

/** A column of the thread's newest item, read through the thread's key (the order a thread is read in). */
function newestItem(column: 'direction' | 'item_id'): string {
  return `(SELECT ${column} FROM desk_thread_items AS item WHERE item.peer = conversation.peer
    ORDER BY item.at DESC, item.direction, item.item_id LIMIT 1)`;
}

const columns = `conversation.peer, conversation.last_at, ${newestItem('direction')} AS last_direction,
  ${newestItem('item_id')} AS last_item_id, conversation.reply_device_id, conversation.reply_sim_number,
  conversation.unread, conversation.archived`;

/**
 * Indexed reads and the read/archive marks of the conversations table. A conversation's last
 * direction and text are its thread's newest item's, read only for the conversations asked for.
 */
export class ConversationStore {
  private readonly selectOne: Statement<[string], ConversationRow>;
  private readonly queries: StatementCache;
  private readonly selectItems: Statement<
    { peer: string; limit: number; offset: number },
    { direction: ConversationDirection; item_id: string; at: number }
  >;
  private readonly countItems: Statement<[string], { total: number }>;
  private readonly selectUnread: Statement<[string], { unread: number }>;
  private readonly setUnread: Statement<{ peer: string; unread: number }>;
  private readonly setArchived: Statement<{ peer: string; archived: number }>;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
    /** The core's tables, read through their port: the texts of the last messages. */
    private readonly core: CoreReads,
  ) {
    this.selectOne = db.prepare(`SELECT ${columns} FROM desk_conversations AS conversation WHERE peer = ?`);
    this.queries = new StatementCache(db);
    this.selectItems = db.prepare(
      `SELECT direction, item_id, at FROM desk_thread_items WHERE peer = @peer
       ORDER BY at DESC, direction LIMIT @limit OFFSET @offset`,
    );
    this.countItems = db.prepare('SELECT count(*) AS total FROM desk_thread_items WHERE peer = ?');
    this.selectUnread = db.prepare('SELECT unread FROM desk_conversations WHERE peer = ?');
    this.setUnread = db.prepare('UPDATE desk_conversations SET unread = @unread WHERE peer = @peer');
    this.setArchived = db.prepare('UPDATE desk_conversations SET archived = @archived WHERE peer = @peer');
  }

  get(peer: string): ConversationSummary | undefined {
    const row = this.selectOne.get(peer);
    return row && this.summariesOf([row])[0];
  }

  /** Newest conversation first. */
  list(query: ConversationListQuery): Page<ConversationSummary> {
    const needle = normaliseNeedle(query.search);
    const digits = query.search?.replace(/\D/g, '') ?? '';
    // A search matches a party's number by its digits, an alphanumeric sender by its name, and a
    // party in the address book by its contact card (scanned, as the Contacts screen's search is).
    const filter = new QueryFilter().when('archived', query.archived ? 1 : 0, 'archived = @archived').when(
      'search',
      needle,
      `(instr(lower(peer), @search) > 0 ${digits === '' ? '' : 'OR instr(peer, @digits) > 0'}
          OR peer IN (SELECT phone_number FROM desk_contacts WHERE instr(search, @search) > 0))`,
    );
    if (needle !== undefined && digits !== '') filter.params.digits = digits;
    const total = this.queries
      .get(`SELECT count(*) AS total FROM desk_conversations ${filter.where}`)
      .get(filter.params) as { total: number } | undefined;
    const rows = this.queries
      .get(
        `SELECT ${columns} FROM desk_conversations AS conversation ${filter.where}
         ORDER BY last_at DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ ...filter.params, limit: query.limit, offset: query.offset }) as ConversationRow[];
    return { total: total?.total ?? 0, items: this.summariesOf(rows) };
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
    const current = this.selectUnread.get(peer);
    if (!current) return Promise.resolve(false);
    const count = unread ? Math.max(current.unread, 1) : 0;
    return this.write(() => this.setUnread.run({ peer, unread: count }).changes);
  }

  archive(peer: string, archived: boolean): Promise<boolean> {
    return this.write(() => this.setArchived.run({ peer, archived: archived ? 1 : 0 }).changes);
  }

  /** The rows' summaries, with the texts of their last messages read in one query per table. */
  private summariesOf(rows: readonly ConversationRow[]): ConversationSummary[] {
    const idsOf = (direction: ConversationDirection) =>
      rows.filter((row) => row.last_direction === direction).map((row) => row.last_item_id);
    const texts = {
      out: this.core.textsOf('messages', idsOf('out')),
      in: this.core.textsOf('inbox', idsOf('in')),
    };
    return rows.map((row) => ({
      peer: row.peer,
      lastAt: row.last_at,
      lastDirection: row.last_direction,
      lastText: textOf(texts[row.last_direction], row.last_item_id),
      ...(row.reply_device_id === null ? {} : { replyDeviceId: row.reply_device_id }),
      ...(row.reply_sim_number === null ? {} : { replySimNumber: row.reply_sim_number }),
      unread: row.unread,
      archived: row.archived === 1,
    }));
  }

  private async write(change: () => number): Promise<boolean> {
    const { value, durable } = this.commits.write(change);
    await durable;
    return value > 0;
  }
}

/** The text a summary shows: the message's, '' once retention has removed it. */
function textOf(texts: Map<string, string | null>, id: string): string {
  const text = texts.get(id);
  if (text === undefined) return '';
  return text ?? dataMessageText;
}
