import type { JournalCollectionOptions } from './journal/journalCollection.js';
import type { InboxQuery, InboxRepository, IncomingRecord, Page } from './repositories.js';
import { TimeIndexedCollection } from './timeIndexedCollection.js';

/** Received messages, newest first by `receivedAt`. */
export class JournalInboxRepository implements InboxRepository {
  private constructor(private readonly records: TimeIndexedCollection<IncomingRecord>) {}

  static async open(options: JournalCollectionOptions): Promise<JournalInboxRepository> {
    const records = await TimeIndexedCollection.open<IncomingRecord>({
      ...options,
      timeOf: (record) => record.receivedAt,
    });
    return new JournalInboxRepository(records);
  }

  /**
   * The id is derived from the content (DESIGN §2), so a message the modem reports twice (after
   * a restart, or read from SIM storage and then by +CMTI) is stored once.
   */
  async insert(record: IncomingRecord): Promise<boolean> {
    if (this.records.has(record.id)) return false;
    await this.records.insert(record);
    return true;
  }

  get(id: string): IncomingRecord | undefined {
    return this.records.get(id);
  }

  list(query: InboxQuery): Page<IncomingRecord> {
    return this.records.page(query, query.offset, query.limit, inboxFilter(query));
  }

  pruneOlderThan(before: number): Promise<number> {
    return this.records.pruneBefore(before);
  }

  count(): number {
    return this.records.size;
  }

  close(): Promise<void> {
    return this.records.close();
  }
}

function inboxFilter(query: InboxQuery): ((record: IncomingRecord) => boolean) | undefined {
  const { type, deviceId } = query;
  const needle = query.search?.trim().toLowerCase() || undefined;
  if (type === undefined && deviceId === undefined && needle === undefined) return undefined;
  return (record) =>
    (type === undefined || record.type === type) &&
    (deviceId === undefined || record.deviceId === deviceId) &&
    (needle === undefined ||
      record.sender.toLowerCase().includes(needle) ||
      (record.type === 'SMS' && record.content.toLowerCase().includes(needle)));
}
