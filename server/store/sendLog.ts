import type { GroupCommit } from './sqlite/groupCommit.js';
import type { Database, Statement } from './sqlite/sqlite.js';

/** One recipient of a message handed to a SIM. */
export interface SendRecord {
  deviceId: string;
  sim: number;
  at: number;
  /** The number as the gateway keys it (spacing and punctuation dropped). */
  recipient: string;
  parts: number;
  /** The app that queued the message ('default': the owner login's, the desk's…). */
  appId: string;
}

/** What a SIM sent from an instant on. */
export interface SendTally {
  /** SMS sent: one per recipient. */
  messages: number;
  parts: number;
  recipients: string[];
}

const DAY_MS = 86_400_000;
/** Longer than any SIM plan's period (a month, with a daylight-saving hour to spare). */
export const keptSendsMs = 40 * DAY_MS;

/**
 * The `sends` table: what each SIM sent, to whom, for which app, kept for `keptSendsMs`. A SIM
 * plan's tally reads only the rows of its period (plans/simPlanUsage.ts); an incoming SMS finds
 * the app that last wrote to its sender (docs/accounts-plans-routing.md, "Apps").
 */
export class SqliteSendLog {
  private readonly insert: Statement<[string, number, number, string, number, string]>;
  private readonly totals: Statement<[string, number, number], { messages: number; parts: number | null }>;
  private readonly distinct: Statement<[string, number, number], { recipient: string }>;
  private readonly lastApp: Statement<[string, number], { app_id: string }>;
  private readonly prune: Statement<[number]>;
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
  ) {
    this.insert = db.prepare(
      'INSERT INTO sends (device_id, sim, at, recipient, parts, app_id) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.totals = db.prepare(
      `SELECT count(*) AS messages, sum(parts) AS parts FROM sends
       WHERE device_id = ? AND sim = ? AND at >= ?`,
    );
    this.distinct = db.prepare(
      'SELECT DISTINCT recipient FROM sends WHERE device_id = ? AND sim = ? AND at >= ?',
    );
    this.lastApp = db.prepare(
      'SELECT app_id FROM sends WHERE recipient = ? AND at >= ? ORDER BY at DESC, rowid DESC LIMIT 1',
    );
    this.prune = db.prepare('DELETE FROM sends WHERE at < ?');
  }

  /**
   * Written into the open group commit: with the hand-over that made the sends, or not at all.
   * Once a day, the rows older than `keptSendsMs` go in the same batch.
   */
  record(sends: readonly SendRecord[]): Promise<void> {
    return this.commits.write(() => {
      for (const send of sends) {
        this.insert.run(send.deviceId, send.sim, send.at, send.recipient, send.parts, send.appId);
        if (send.at - this.prunedAt >= DAY_MS) {
          this.prunedAt = send.at;
          this.prune.run(send.at - keptSendsMs);
        }
      }
    }).durable;
  }

  tallySince(deviceId: string, sim: number, since: number): SendTally {
    const totals = this.totals.get(deviceId, sim, since);
    return {
      messages: totals?.messages ?? 0,
      parts: totals?.parts ?? 0,
      recipients: this.distinct.all(deviceId, sim, since).map((row) => row.recipient),
    };
  }

  /** The app whose message this number received last, since `since` (ms). */
  lastAppTo(recipient: string, since: number): string | undefined {
    return this.lastApp.get(recipient, since)?.app_id;
  }
}
