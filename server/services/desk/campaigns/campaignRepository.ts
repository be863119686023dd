import type { MessageState } from '../../../contract/domain/message.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { CoreReads } from '../../../store/sqlite/coreReads.js';
import type { GroupCommit } from '../../../store/sqlite/groupCommit.js';
import type { Database, Statement } from '../../../store/sqlite/sqlite.js';

/** What is stored of a campaign; its progress is counted from its messages' states. */
export interface CampaignRecord {
  id: string;
  name: string;
  /** The text as written, placeholders included. */
  text: string;
  createdAt: number;
  recipients: number;
  totalParts: number;
  cancelledAt?: number;
  /** Its messages are not sent before this instant (a bulk send scheduled for later). */
  scheduleAt?: number;
  /** SHA-256 of the request: a retry under the same id must send the same one. */
  fingerprint?: string;
  /** `sequence` of its first message: every message of it queues at that place (`batchSequence`). */
  sequence?: number;
  /** Its messages are still being written, or their writing was cut short (a crash, a full queue). */
  queueing?: true;
}

/**
 * Campaigns and the ids of their messages. A campaign's messages are ordinary messages in the
 * queue (`messages` table); this table only remembers which, so progress is one grouped count
 * over an index join, never a read of 10,000 message bodies.
 */
export class CampaignRepository {
  private readonly insertCampaign: Statement<{ id: string; created_at: number; body: string }>;
  private readonly updateCampaign: Statement<{ id: string; body: string }>;
  private readonly insertMember: Statement<{ campaign_id: string; message_id: string }>;
  private readonly selectOne: Statement<[string], { body: string }>;
  private readonly selectPage: Statement<{ limit: number; offset: number }, { body: string }>;
  private readonly countAll: Statement<[], { total: number }>;
  private readonly selectMessageIds: Statement<[string], { message_id: string }>;

  constructor(
    private readonly db: Database,
    private readonly commits: GroupCommit,
    /** The core's messages, read through their port. */
    private readonly core: CoreReads,
  ) {
    this.insertCampaign = db.prepare(
      'INSERT INTO desk_campaigns (id, created_at, body) VALUES (@id, @created_at, @body)',
    );
    this.updateCampaign = db.prepare('UPDATE desk_campaigns SET body = @body WHERE id = @id');
    this.insertMember = db.prepare(
      'INSERT INTO desk_campaign_messages (campaign_id, message_id) VALUES (@campaign_id, @message_id)',
    );
    this.selectOne = db.prepare('SELECT body FROM desk_campaigns WHERE id = ?');
    this.selectPage = db.prepare(
      'SELECT body FROM desk_campaigns ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset',
    );
    this.countAll = db.prepare('SELECT count(*) AS total FROM desk_campaigns');
    this.selectMessageIds = db.prepare('SELECT message_id FROM desk_campaign_messages WHERE campaign_id = ?');
  }

  /**
   * Writes the campaign and the ids of its first messages in the current batch and returns the
   * promise of its durability: call it in the same turn as `MessageService.enqueuePrepared` for
   * those messages.
   */
  insert(record: CampaignRecord, messageIds: readonly string[]): Promise<void> {
    return this.commits.write(
      this.db.transaction(() => {
        this.insertCampaign.run({
          id: record.id,
          created_at: record.createdAt,
          body: JSON.stringify(record),
        });
        this.addMembers(record.id, messageIds);
      }),
    ).durable;
  }

  /** Ids of more of the campaign's messages, in the turn that enqueues them (as `insert`). */
  addMessages(campaignId: string, messageIds: readonly string[]): Promise<void> {
    return this.commits.write(this.db.transaction(() => this.addMembers(campaignId, messageIds))).durable;
  }

  private addMembers(campaignId: string, messageIds: readonly string[]): void {
    for (const id of messageIds) this.insertMember.run({ campaign_id: campaignId, message_id: id });
  }

  async update(record: CampaignRecord): Promise<void> {
    await this.commits.write(() => this.updateCampaign.run({ id: record.id, body: JSON.stringify(record) }))
      .durable;
  }

  get(id: string): CampaignRecord {
    const record = this.find(id);
    if (!record) throw new GatewayError(ErrorCode.NotFound, `campaign ${id} not found`, { field: 'id' });
    return record;
  }

  find(id: string): CampaignRecord | undefined {
    const row = this.selectOne.get(id);
    return row && (JSON.parse(row.body) as CampaignRecord);
  }

  /** Newest first. */
  list(limit: number, offset: number): { total: number; items: CampaignRecord[] } {
    const total = this.countAll.get()?.total ?? 0;
    const items = this.selectPage.all({ limit, offset }).map((row) => JSON.parse(row.body) as CampaignRecord);
    return { total, items };
  }

  /** How many of the campaign's messages are in each state (messages removed by retention are not counted). */
  stateCounts(id: string): Partial<Record<MessageState, number>> {
    return this.core.stateCounts(this.messageIds(id));
  }

  messageIds(id: string): string[] {
    return this.selectMessageIds.all(id).map((row) => row.message_id);
  }
}
