import type { Clock } from '../../../clock/clock.js';
import { toIsoWithOffset } from '../../../clock/isoTime.js';
import type { OptOutSource } from '../../../contract/domain/desk.js';
import type { PeerKey } from '../../../contract/domain/peerKey.js';
import type { WebhookEvent } from '../../../contract/domain/webhookEvents.js';
import type { Page } from '../../../store/repositories.js';
import type { GroupCommit } from '../../../store/sqlite/groupCommit.js';
import type { Database, Statement } from '../../../store/sqlite/sqlite.js';
import type { EventBus } from '../../events/eventBus.js';
import type { RecipientFilter } from '../campaigns/audience.js';
import { deskFact } from '../deskEvents.js';

export interface OptOut {
  number: string;
  addedAt: number;
  source: OptOutSource;
}

interface OptOutRow {
  number: string;
  added_at: number;
  source: OptOutSource;
}

/**
 * The numbers that asked not to be texted (docs/desk.md "Opt-out"). Every number is stored and looked
 * up under its desk key, so "+44 7700 900123" on the list stops a send to "+447700900123".
 * The scheduler asks `isOptedOut` before each recipient's send; bulk sends filter their
 * preview with `filterOptedOut`.
 */
export class OptOutList implements RecipientFilter {
  private readonly selectOne: Statement<[string], OptOutRow>;
  private readonly insertRow: Statement<OptOutRow>;
  private readonly deleteRow: Statement<[string]>;
  private readonly countAll: Statement<[], { total: number }>;
  private readonly selectPage: Statement<{ limit: number; offset: number }, OptOutRow>;

  constructor(
    db: Database,
    private readonly commits: GroupCommit,
    private readonly deps: { key: PeerKey; clock: Clock; events: EventBus },
  ) {
    this.selectOne = db.prepare('SELECT number, added_at, source FROM desk_opt_outs WHERE number = ?');
    this.insertRow = db.prepare(
      'INSERT OR IGNORE INTO desk_opt_outs (number, added_at, source) VALUES (@number, @added_at, @source)',
    );
    this.deleteRow = db.prepare('DELETE FROM desk_opt_outs WHERE number = ?');
    this.countAll = db.prepare('SELECT count(*) AS total FROM desk_opt_outs');
    this.selectPage = db.prepare(
      'SELECT number, added_at, source FROM desk_opt_outs ORDER BY added_at DESC, number LIMIT @limit OFFSET @offset',
    );
  }

  isOptedOut(number: string): boolean {
    return this.selectOne.get(this.deps.key(number)) !== undefined;
  }

  /** As a bulk send's recipient filter (desk.ts): the numbers of `phoneNumbers` on the list. */
  readonly name = 'opted out';
  exclude(phoneNumbers: readonly string[]): ReadonlySet<string> {
    return new Set(phoneNumbers.filter((number) => this.isOptedOut(number)));
  }

  get(number: string): OptOut | undefined {
    const row = this.selectOne.get(this.deps.key(number));
    return row && optOutOf(row);
  }

  /**
   * Adds the number (once; a second add keeps the first date). Resolves once durable; its
   * `optout:added` is recorded in the same commit.
   */
  async add(number: string, source: OptOutSource, deviceId = ''): Promise<OptOut> {
    const key = this.deps.key(number);
    const row: OptOutRow = { number: key, added_at: this.deps.clock.now(), source };
    const fact = deskFact('optout:added', deviceId, {
      phoneNumber: key,
      source,
      addedAt: toIsoWithOffset(row.added_at),
    });
    await this.storeAnnouncing(() => this.insertRow.run(row).changes, fact);
    return optOutOf(this.selectOne.get(key) ?? row);
  }

  /** Removes the number; false when it was not on the list. */
  async remove(number: string, source: OptOutSource, deviceId = ''): Promise<boolean> {
    const key = this.deps.key(number);
    const fact = deskFact('optout:removed', deviceId, {
      phoneNumber: key,
      source,
      removedAt: toIsoWithOffset(this.deps.clock.now()),
    });
    return (await this.storeAnnouncing(() => this.deleteRow.run(key).changes, fact)) > 0;
  }

  /** Runs `change`; when it changed a row, `fact` is recorded in its commit and emitted once durable. */
  private async storeAnnouncing(change: () => number, fact: WebhookEvent): Promise<number> {
    const { events } = this.deps;
    const { value: changes, durable } = this.commits.write(() => {
      const changed = change();
      if (changed > 0) events.record('gateway:fact', fact);
      return changed;
    });
    await durable;
    if (changes > 0) events.emit('gateway:fact', fact);
    return changes;
  }

  /** Newest first. */
  list(limit: number, offset: number): Page<OptOut> {
    return {
      total: this.countAll.get()?.total ?? 0,
      items: this.selectPage.all({ limit, offset }).map(optOutOf),
    };
  }
}

function optOutOf(row: OptOutRow): OptOut {
  return { number: row.number, addedAt: row.added_at, source: row.source };
}
