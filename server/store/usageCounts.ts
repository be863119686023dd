import type { Database, Statement } from './sqlite/sqlite.js';

/**
 * Messages per day and per sender (docs/accounts-plans-routing.md, "Usage"): how many each app
 * and each person queued, their SMS parts, and how many failed. The sender is who the audit
 * trail names first for the message (a person, or an app as `app:<id>`); a message it names no
 * one for belongs to its app (`appId` of the record), else the default app — the desk's
 * campaigns and auto-replies, and messages from before the audit trail. Days are UTC days.
 */
export interface UsageRow {
  /** YYYY-MM-DD, UTC. */
  day: string;
  senderId: string;
  senderName: string;
  messages: number;
  parts: number;
  failed: number;
}

export class SqliteUsageCounts {
  private readonly select: Statement<[number, number], UsageRow>;

  constructor(db: Database) {
    this.select = db.prepare(
      `SELECT date(m.created_at / 1000, 'unixepoch') AS day,
         coalesce(a.actor_id, 'app:' || json_extract(m.body, '$.appId'), 'app:default') AS senderId,
         coalesce(a.actor_name, json_extract(m.body, '$.appId'), 'default') AS senderName,
         count(*) AS messages,
         sum((SELECT coalesce(sum(json_array_length(r.value, '$.parts')), 0)
              FROM json_each(m.body, '$.recipients') AS r)) AS parts,
         sum(m.state = 'Failed') AS failed
       FROM messages AS m
       LEFT JOIN audit_events AS a ON a.seq = (
         SELECT min(seq) FROM audit_events WHERE subject = m.id AND action = 'POST /messages')
       WHERE m.created_at >= ? AND m.created_at < ?
       GROUP BY 1, 2
       ORDER BY 1, 3`,
    );
  }

  /** Per UTC day and sender, from `from` (inclusive) to `to` (exclusive), ms. */
  between(from: number, to: number): UsageRow[] {
    return this.select.all(from, to);
  }
}
