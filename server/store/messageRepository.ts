import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import { type MessageRecord, type MessageState, MessageStates } from '../messages/model.js';
import type { JournalCollectionOptions } from './journal/journalCollection.js';
import type { MessageQuery, MessageRepository, Page } from './repositories.js';
import { type RecordObserver, TimeIndexedCollection } from './timeIndexedCollection.js';

/**
 * Ids per aggregate state, maintained on every change, so `pending()` (the scheduler's hot
 * path) and `inState` (crash recovery) never scan the whole history.
 */
class StateIndex implements RecordObserver<MessageRecord> {
  private readonly byState = new Map<MessageState, Set<string>>(
    MessageStates.map((state) => [state, new Set<string>()]),
  );

  stored(record: MessageRecord): void {
    this.ids(record.state).add(record.id);
  }

  removed(record: MessageRecord): void {
    // The record may have been changed in place by a careless caller: clear every state.
    for (const ids of this.byState.values()) ids.delete(record.id);
  }

  ids(state: MessageState): Set<string> {
    let ids = this.byState.get(state);
    if (!ids) {
      ids = new Set<string>();
      this.byState.set(state, ids);
    }
    return ids;
  }
}

/**
 * Pending and Processed messages are still in the gateway's hands (queued or at a modem);
 * retention never removes them, however old.
 */
function isInFlight(record: MessageRecord): boolean {
  return record.state === 'Pending' || record.state === 'Processed';
}

export class JournalMessageRepository implements MessageRepository {
  private constructor(
    private readonly records: TimeIndexedCollection<MessageRecord>,
    private readonly states: StateIndex,
  ) {}

  static async open(options: JournalCollectionOptions): Promise<JournalMessageRepository> {
    const states = new StateIndex();
    const records = await TimeIndexedCollection.open<MessageRecord>({
      ...options,
      timeOf: (record) => record.createdAt,
      observer: states,
    });
    return new JournalMessageRepository(records, states);
  }

  insert(record: MessageRecord): Promise<void> {
    if (this.records.has(record.id)) {
      return Promise.reject(
        new GatewayError(ErrorCode.Conflict, `message ${record.id} already exists`, { field: 'id' }),
      );
    }
    return this.records.insert(record);
  }

  update(record: MessageRecord): Promise<void> {
    if (!this.records.has(record.id)) {
      return Promise.reject(new GatewayError(ErrorCode.NotFound, `message ${record.id} not found`));
    }
    return this.records.replace(record);
  }

  get(id: string): MessageRecord | undefined {
    return this.records.get(id);
  }

  list(query: MessageQuery): Page<MessageRecord> {
    const { state, offset, limit } = query;
    const match = messageFilter(query);
    if (state === undefined) return this.records.page(query, offset, limit, match);
    return this.records.pageWithin(this.states.ids(state), query, offset, limit, bySequence, match);
  }

  pending(): MessageRecord[] {
    return this.inState('Pending');
  }

  countInState(state: MessageState): number {
    return this.states.ids(state).size;
  }

  inState(state: MessageState): MessageRecord[] {
    const records: MessageRecord[] = [];
    for (const id of this.states.ids(state)) {
      const record = this.records.get(id);
      if (record) records.push(record);
    }
    return records;
  }

  count(): number {
    return this.records.size;
  }

  pruneOlderThan(before: number): Promise<number> {
    return this.records.pruneBefore(before, (record) => !isInFlight(record));
  }

  close(): Promise<void> {
    return this.records.close();
  }
}

/** Same createdAt: the later enqueued (higher sequence) is the newer. */
function bySequence(left: MessageRecord, right: MessageRecord): number {
  return right.sequence - left.sequence;
}

/**
 * The non-time, non-state part of a query (time is the index's range, state has its own index);
 * undefined when there is none, so the index can slice pages directly.
 */
function messageFilter(query: Omit<MessageQuery, 'state'>): ((record: MessageRecord) => boolean) | undefined {
  const { deviceId } = query;
  const needle = query.search?.trim().toLowerCase() || undefined;
  if (deviceId === undefined && needle === undefined) return undefined;
  return (record) =>
    (deviceId === undefined || (record.deviceId ?? record.requestedDeviceId) === deviceId) &&
    (needle === undefined || messageContains(record, needle));
}

function messageContains(record: MessageRecord, needle: string): boolean {
  if (record.content.kind === 'text' && record.content.text.toLowerCase().includes(needle)) return true;
  return record.recipients.some((recipient) => recipient.phoneNumber.toLowerCase().includes(needle));
}
