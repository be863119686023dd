import { actorWithWayIn } from '../contract/domain/submissionWays.js';
import type { GroupCommit } from './sqlite/groupCommit.js';
import { QueryFilter } from './sqlite/queryFilter.js';
import type { Database, Statement } from './sqlite/sqlite.js';
import { StatementCache } from './sqlite/statementCache.js';

/**
 * Who did what (docs/accounts-plans-routing.md, "Audit"): every change made through the API,
 * with the person who made it, what it was (`action`: method and route, `summary`: the route's
 * own words), what it changed (`subject`: a message, contact, campaign… id, or empty) and the
 * names of the fields it sent — never their values, which may hold passwords.
 */
export interface AuditEvent {
  at: number;
  actorId: string;
  actorName: string;
  action: string;
  summary: string;
  subject: string;
  fields: string[];
}

/** A stored event, with its place in the trail. */
export interface StoredAuditEvent extends AuditEvent {
  seq: number;
}

export interface AuditQuery {
  subject?: string;
  actorId?: string;
  from?: number;
  to?: number;
  limit: number;
  offset: number;
}

interface AuditRow {
  at: number;
  actor_id: string;
  actor_name: string;
  action: string;
  summary: string;
  subject: string;
  fields: string;
}

export interface AuditTrail {
  /** Written into the open group commit; resolves once durable. */
  record(event: AuditEvent): Promise<void>;
  /** Newest first, with the total that matches. */
  list(query: AuditQuery): { total: number; items: StoredAuditEvent[] };
  /**
   * Who first acted on each subject that has events (who sent a message, made a contact…), and
   * for a message queued by mail or SMPP, how ("olga, by e-mail").
   */
  firstActors(subjects: readonly string[]): Record<string, string>;
}

export class SqliteAuditTrail implements AuditTrail {
  private readonly queries: StatementCache;
  private readonly insert: Statement<AuditRow>;
  private readonly firstActor: Statement<[string], { actor_name: string; action: string }>;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
  ) {
    this.queries = new StatementCache(db);
    this.insert = db.prepare(
      `INSERT INTO audit_events (at, actor_id, actor_name, action, summary, subject, fields)
       VALUES (@at, @actor_id, @actor_name, @action, @summary, @subject, @fields)`,
    );
    this.firstActor = db.prepare(
      'SELECT actor_name, action FROM audit_events WHERE subject = ? ORDER BY seq LIMIT 1',
    );
  }

  record(event: AuditEvent): Promise<void> {
    const row: AuditRow = {
      at: event.at,
      actor_id: event.actorId,
      actor_name: event.actorName,
      action: event.action,
      summary: event.summary,
      subject: event.subject,
      fields: JSON.stringify(event.fields),
    };
    return this.commits.write(() => this.insert.run(row)).durable;
  }

  firstActors(subjects: readonly string[]): Record<string, string> {
    const found: Record<string, string> = {};
    for (const subject of new Set(subjects)) {
      const row = this.firstActor.get(subject);
      if (row) found[subject] = actorWithWayIn(row.actor_name, row.action);
    }
    return found;
  }

  list(query: AuditQuery): { total: number; items: StoredAuditEvent[] } {
    const filter = new QueryFilter()
      .when('subject', query.subject, 'subject = @subject')
      .when('actor', query.actorId, 'actor_id = @actor')
      .when('from', query.from, 'at >= @from')
      .when('to', query.to, 'at < @to');
    const { total } = this.queries
      .get(`SELECT count(*) AS total FROM audit_events ${filter.where}`)
      .get(filter.params) as { total: number };
    const rows = this.queries
      .get(`SELECT * FROM audit_events ${filter.where} ORDER BY seq DESC LIMIT @limit OFFSET @offset`)
      .all({ ...filter.params, limit: query.limit, offset: query.offset }) as Array<
      AuditRow & { seq: number }
    >;
    return {
      total,
      items: rows.map((row) => ({
        seq: row.seq,
        at: row.at,
        actorId: row.actor_id,
        actorName: row.actor_name,
        action: row.action,
        summary: row.summary,
        subject: row.subject,
        fields: JSON.parse(row.fields) as string[],
      })),
    };
  }
}
