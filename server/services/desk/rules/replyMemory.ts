import type { GroupCommit } from '../../../store/sqlite/groupCommit.js';
import type { Database, Statement } from '../../../store/sqlite/sqlite.js';

/**
 * Loop protection: when each rule last acted for each sender. Two gateways answering each
 * other, or an auto-responder on the far side, get one answer per rule per period, not a storm.
 */
export class ReplyMemory {
  private readonly selectAt: Statement<{ rule: string; sender: string }, { at: number }>;
  private readonly upsert: Statement<{ rule: string; sender: string; at: number }>;
  private readonly forgetRule: Statement<[string]>;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
  ) {
    this.selectAt = db.prepare('SELECT at FROM desk_rule_replies WHERE rule_id = @rule AND sender = @sender');
    this.upsert = db.prepare(
      `INSERT INTO desk_rule_replies (rule_id, sender, at) VALUES (@rule, @sender, @at)
       ON CONFLICT (rule_id, sender) DO UPDATE SET at = excluded.at`,
    );
    this.forgetRule = db.prepare('DELETE FROM desk_rule_replies WHERE rule_id = ?');
  }

  /** When this rule last acted for this sender, if ever. */
  lastActedAt(rule: string, sender: string): number | undefined {
    return this.selectAt.get({ rule, sender })?.at;
  }

  noteActed(rule: string, sender: string, at: number): Promise<void> {
    return this.commits.write(() => this.upsert.run({ rule, sender, at })).durable;
  }

  forget(rule: string): Promise<void> {
    return this.commits.write(() => this.forgetRule.run(rule)).durable;
  }
}
