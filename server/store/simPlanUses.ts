import type { GroupCommit } from './sqlite/groupCommit.js';
import type { Database, Statement } from './sqlite/sqlite.js';

/** One recipient of a message handed to a SIM: what its plan counts (plans/simPlanUsage.ts). */
export interface SimPlanUse {
  deviceId: string;
  sim: number;
  at: number;
  recipient: string;
  parts: number;
}

/** What a SIM sent from an instant on. */
export interface SimPlanTally {
  /** SMS sent: one per recipient. */
  messages: number;
  parts: number;
  recipients: string[];
}

/**
 * The `sim_plan_uses` table: the SIMs' sends, kept as long as the longest plan period needs
 * them. A tally reads only the rows of the period asked for (index by SIM and time).
 */
export class SqliteSimPlanUses {
  private readonly insert: Statement<[string, number, number, string, number]>;
  private readonly totals: Statement<[string, number, number], { messages: number; parts: number | null }>;
  private readonly distinct: Statement<[string, number, number], { recipient: string }>;
  private readonly prune: Statement<[number]>;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
  ) {
    this.insert = db.prepare(
      'INSERT INTO sim_plan_uses (device_id, sim, at, recipient, parts) VALUES (?, ?, ?, ?, ?)',
    );
    this.totals = db.prepare(
      `SELECT count(*) AS messages, sum(parts) AS parts FROM sim_plan_uses
       WHERE device_id = ? AND sim = ? AND at >= ?`,
    );
    this.distinct = db.prepare(
      'SELECT DISTINCT recipient FROM sim_plan_uses WHERE device_id = ? AND sim = ? AND at >= ?',
    );
    this.prune = db.prepare('DELETE FROM sim_plan_uses WHERE at < ?');
  }

  /** Written into the open group commit: with the hand-over that made the uses, or not at all. */
  record(uses: readonly SimPlanUse[]): Promise<void> {
    return this.commits.write(() => {
      for (const use of uses) this.insert.run(use.deviceId, use.sim, use.at, use.recipient, use.parts);
    }).durable;
  }

  tallySince(deviceId: string, sim: number, since: number): SimPlanTally {
    const totals = this.totals.get(deviceId, sim, since);
    return {
      messages: totals?.messages ?? 0,
      parts: totals?.parts ?? 0,
      recipients: this.distinct.all(deviceId, sim, since).map((row) => row.recipient),
    };
  }

  /** Forgets the uses before `before` (ms): no period reaches back that far. */
  pruneBefore(before: number): Promise<void> {
    return this.commits.write(() => {
      this.prune.run(before);
    }).durable;
  }
}
