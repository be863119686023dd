import type { Database, Statement } from './sqlite.js';

/**
 * Prepared statements by SQL text. Queries are built from the filters a request has: there are
 * a few dozen shapes at most, each prepared once.
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  get(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
