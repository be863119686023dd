import type { VerificationStatus } from '../contract/schemas/verificationSchemas.js';
import type { GroupCommit } from './sqlite/groupCommit.js';
import type { Database, Statement } from './sqlite/sqlite.js';

/** One verification as stored: never the code, only its keyed hash. */
export interface VerificationRecord {
  id: string;
  /** The app that asked; absent for a person (the owner's login). */
  appId?: string;
  phoneNumber: string;
  codeHash: string;
  createdAt: number;
  expiresAt: number;
  wrongAttempts: number;
  status: VerificationStatus;
  messageId: string;
}

interface Row {
  id: string;
  app_id: string | null;
  phone_number: string;
  code_hash: string;
  created_at: number;
  expires_at: number;
  wrong_attempts: number;
  status: VerificationStatus;
  message_id: string;
}

/** How long a verification is kept after it was made: the per-number limits look back less. */
export const keptVerificationsMs = 24 * 3_600_000;

/** The `verifications` table (schema step "Verification codes"), written in the group commit. */
export class SqliteVerificationStore {
  private readonly insertRow: Statement<Row>;
  private readonly select: Statement<[string], Row>;
  private readonly setOutcome: Statement<{ id: string; status: string; wrong: number }>;
  private readonly sentSince: Statement<
    [string, number],
    { count: number; first: number | null; last: number | null }
  >;
  private readonly wrongSince: Statement<[string, number], { wrong: number }>;
  private readonly prune: Statement<[number]>;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
  ) {
    this.insertRow = db.prepare(
      `INSERT INTO verifications (id, app_id, phone_number, code_hash, created_at, expires_at, wrong_attempts, status, message_id)
       VALUES (@id, @app_id, @phone_number, @code_hash, @created_at, @expires_at, @wrong_attempts, @status, @message_id)`,
    );
    this.select = db.prepare('SELECT * FROM verifications WHERE id = ?');
    this.setOutcome = db.prepare(
      'UPDATE verifications SET status = @status, wrong_attempts = @wrong WHERE id = @id',
    );
    this.sentSince = db.prepare(
      `SELECT count(*) AS count, min(created_at) AS first, max(created_at) AS last FROM verifications
       WHERE phone_number = ? AND created_at >= ?`,
    );
    this.wrongSince = db.prepare(
      'SELECT coalesce(sum(wrong_attempts), 0) AS wrong FROM verifications WHERE phone_number = ? AND created_at >= ?',
    );
    this.prune = db.prepare('DELETE FROM verifications WHERE created_at < ?');
  }

  /** Stored durably; the rows older than `keptVerificationsMs` go in the same write. */
  insert(record: VerificationRecord): Promise<void> {
    return this.commits.write(() => {
      this.prune.run(record.createdAt - keptVerificationsMs);
      this.insertRow.run({
        id: record.id,
        app_id: record.appId ?? null,
        phone_number: record.phoneNumber,
        code_hash: record.codeHash,
        created_at: record.createdAt,
        expires_at: record.expiresAt,
        wrong_attempts: record.wrongAttempts,
        status: record.status,
        message_id: record.messageId,
      });
    }).durable;
  }

  get(id: string): VerificationRecord | undefined {
    const row = this.select.get(id);
    return row && recordOf(row);
  }

  update(id: string, status: VerificationStatus, wrongAttempts: number): Promise<void> {
    return this.commits.write(() => this.setOutcome.run({ id, status, wrong: wrongAttempts })).durable;
  }

  /** Verifications sent to the number since `since`, and when the first and last of them were. */
  sentTo(phoneNumber: string, since: number): { count: number; firstAt?: number; lastAt?: number } {
    const row = this.sentSince.get(phoneNumber, since);
    if (!row || row.count === 0 || row.first === null || row.last === null) return { count: 0 };
    return { count: row.count, firstAt: row.first, lastAt: row.last };
  }

  /** Wrong codes tried for the number's verifications made since `since`. */
  wrongFor(phoneNumber: string, since: number): number {
    return this.wrongSince.get(phoneNumber, since)?.wrong ?? 0;
  }
}

function recordOf(row: Row): VerificationRecord {
  return {
    id: row.id,
    ...(row.app_id === null ? {} : { appId: row.app_id }),
    phoneNumber: row.phone_number,
    codeHash: row.code_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    wrongAttempts: row.wrong_attempts,
    status: row.status,
    messageId: row.message_id,
  };
}
