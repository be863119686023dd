import type {
  IncomingRecord,
  PendingGroup,
  PendingPartsStore,
} from '../../server/contract/domain/incoming.js';
import type { InboxQuery, InboxRepository, Page } from '../../server/store/repositories.js';

/** An in-memory InboxRepository with the contract's idempotent insert, for inbox tests. */
export class MemoryInbox implements InboxRepository {
  readonly records = new Map<string, IncomingRecord>();

  async insert(record: IncomingRecord, inCommit?: () => void): Promise<boolean> {
    if (this.records.has(record.id)) return false;
    this.records.set(record.id, record);
    inCommit?.();
    return true;
  }

  get(id: string): IncomingRecord | undefined {
    return this.records.get(id);
  }

  list(query: InboxQuery): Promise<Page<IncomingRecord>> {
    const items = [...this.records.values()].sort((left, right) => right.receivedAt - left.receivedAt);
    return Promise.resolve({
      total: items.length,
      items: items.slice(query.offset, query.offset + query.limit),
    });
  }

  async pruneOlderThan(before: number): Promise<number> {
    let removed = 0;
    for (const [id, record] of this.records) {
      if (record.receivedAt < before) {
        this.records.delete(id);
        removed++;
      }
    }
    return removed;
  }

  count(): number {
    return this.records.size;
  }

  all(): IncomingRecord[] {
    return [...this.records.values()];
  }
}

/** A PendingPartsStore in memory that copies through JSON, as the database does. */
export function memoryPendingParts(): PendingPartsStore {
  let saved = '[]';
  return {
    async load() {
      return JSON.parse(saved) as PendingGroup[];
    },
    async save(groups) {
      saved = JSON.stringify(groups);
    },
  };
}
