import type { GroupCommit } from './sqlite/groupCommit.js';
import type { Database, Statement } from './sqlite/sqlite.js';

/**
 * A small durable collection of JSON records keyed by id (the webhook outbox, pending multipart
 * groups), one per name in the `collections` table. Reads come from the database; writes are
 * visible at once and their promise settles when durable (group commit).
 */
export class KeyedCollection<T extends { id: string }> {
  private readonly selectOne: Statement<{ collection: string; id: string }, { body: string }>;
  private readonly selectAll: Statement<{ collection: string }, { body: string }>;
  private readonly upsert: Statement<{ collection: string; id: string; body: string }>;
  private readonly remove: Statement<{ collection: string; id: string }>;
  private readonly removeAll: Statement<{ collection: string }>;

  constructor(
    private readonly db: Database,
    private readonly commits: GroupCommit,
    private readonly name: string,
  ) {
    this.selectOne = db.prepare('SELECT body FROM collections WHERE collection = @collection AND id = @id');
    this.selectAll = db.prepare('SELECT body FROM collections WHERE collection = @collection');
    this.upsert = db.prepare(
      'INSERT OR REPLACE INTO collections (collection, id, body) VALUES (@collection, @id, @body)',
    );
    this.remove = db.prepare('DELETE FROM collections WHERE collection = @collection AND id = @id');
    this.removeAll = db.prepare('DELETE FROM collections WHERE collection = @collection');
  }

  get(id: string): T | undefined {
    const row = this.selectOne.get({ collection: this.name, id });
    return row && (JSON.parse(row.body) as T);
  }

  /**
   * Reads one row at a time, so a large collection is never held in memory at once. The
   * connection runs no other statement until the iteration ends (a binding may refuse it):
   * collect first (`[...values()]`) when the loop writes.
   */
  *values(): Generator<T> {
    for (const row of this.selectAll.iterate({ collection: this.name }) as Iterable<{ body: string }>) {
      yield JSON.parse(row.body) as T;
    }
  }

  /** Inserts or replaces; resolves once durable. Throws GatewayError(StoreClosed) when closed. */
  put(record: T): Promise<void> {
    return this.commits.write(() =>
      this.upsert.run({ collection: this.name, id: record.id, body: JSON.stringify(record) }),
    ).durable;
  }

  delete(id: string): Promise<void> {
    return this.commits.write(() => this.remove.run({ collection: this.name, id })).durable;
  }

  /** Replaces the whole collection atomically (one savepoint inside the batch). */
  replaceAll(records: readonly T[]): Promise<void> {
    const replace = this.db.transaction(() => {
      this.removeAll.run({ collection: this.name });
      for (const record of records) {
        this.upsert.run({ collection: this.name, id: record.id, body: JSON.stringify(record) });
      }
    });
    return this.commits.write(() => replace()).durable;
  }
}
