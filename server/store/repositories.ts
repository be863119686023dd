import type { IncomingAudience, IncomingRecord, IncomingType } from '../contract/domain/incoming.js';
import type {
  MessageRecord,
  MessageState,
  MessageStateFilter,
  MmsAttachment,
} from '../contract/domain/message.js';
import type { ProcessingOrder } from '../contract/domain/messageOrder.js';
import type { LogRecord } from '../logging/logger.js';

/**
 * What the rest of the gateway needs from storage. Large, fast-growing collections (messages,
 * inbox, logs, webhook outbox, multipart reassembly) live in one SQLite database (`sqlite/`,
 * WAL), so memory and start-up do not grow with history (docs/decisions.md#storage). Small ones (settings,
 * webhooks, tokens, devices) live in lowdb.
 *
 * Every write method resolves only once the change is durable (committed with its WAL fsynced,
 * group committed); a caller that got the promise resolved may tell the client "accepted".
 * Reads are synchronous: indexed queries, or memory for the messages still in flight.
 */
export interface Page<T> {
  total: number;
  items: T[];
}

export interface TimeRange {
  /** Inclusive lower bound, ms since epoch. */
  from?: number;
  /** Exclusive upper bound, ms since epoch. */
  to?: number;
}

export interface MessageQuery extends TimeRange {
  state?: MessageStateFilter;
  deviceId?: string;
  /** Only the messages this app queued (auth/appDirectory.ts); absent: everyone's. */
  appId?: string;
  /** Case-insensitive substring of text content or a phone number (UI search). */
  search?: string;
  /** Only messages with at least one Failed recipient, whatever their state. */
  anyRecipientFailed?: boolean;
  /** Oldest first instead of newest first. */
  oldestFirst?: boolean;
  limit: number;
  offset: number;
}

/** How a page of messages is listed: the API's message states (messageView.ts). */
export interface MessageListForm {
  withContent: boolean;
  /** Stands in for the device of a message that none took or was asked for (`toMessageView`). */
  unassignedDeviceId: string | undefined;
}

/** A page of message states as the API answers it: one JSON array, written once. */
export interface ListedMessages {
  total: number;
  json: string;
}

export interface AwaitingReports {
  deviceId: string;
  count: number;
  /** When the longest-waiting of them was sent, ms since the epoch. */
  oldestSentAt: number;
}

export interface HandOver {
  deviceId: string;
  at: number;
}

/** A queued message and its place in the queue's order (the key `waiting` pages after). */
export interface WaitingEntry {
  key: string;
  record: MessageRecord;
}

export interface WaitingDeadlines {
  /** The earliest `validUntil` among the queued messages; Infinity when none has one. */
  nextExpiry: number;
  /** The earliest `scheduleAt` after now; Infinity when none is scheduled. */
  nextScheduled: number;
}

export interface MessageRepository {
  /**
   * Throws GatewayError(Conflict, field "id") when the id exists. Visible to reads at once. An
   * MMS's attachments are stored in the same commit, beside its row.
   */
  insert(record: MessageRecord, attachments?: readonly MmsAttachment[]): Promise<void>;
  /** An MMS's attachments with their bytes, in order; none for any other message. */
  attachmentsOf(id: string): MmsAttachment[];
  /**
   * Replaces the stored record with the same id. Applies to memory synchronously, before the
   * returned promise settles, so a read-modify-write with no await in between is atomic.
   * `inCommit` runs synchronously inside the commit that stores the change, only when the
   * record was there to change (see InboxRepository.insert).
   */
  update(record: MessageRecord, inCommit?: () => void): Promise<void>;
  get(id: string): MessageRecord | undefined;
  /**
   * Newest first (createdAt descending), as the API's message states (`toMessageView`, rendered
   * from the rows on a page reader's thread); includes every write made before the call.
   */
  list(query: MessageQuery, form: MessageListForm): Promise<ListedMessages>;
  /**
   * Up to `limit` queued messages that are ready at `now` (their `scheduleAt` reached, their
   * `validUntil` not passed), in queue order for `order`, after the entry keyed `after`: the
   * queue is read a page at a time, never held whole.
   */
  waiting(order: ProcessingOrder, now: number, limit: number, after?: string): WaitingEntry[];
  /** Every queued message whose `validUntil` is at or before `now`. */
  expiredWaiting(now: number): MessageRecord[];
  /** When the queue next changes by itself: its earliest expiry, and its earliest start after `now`. */
  waitingDeadlines(now: number): WaitingDeadlines;
  /**
   * Grows with every write that leaves a message Pending (queued, changed while queued, put back
   * in the queue): a reader that read a page of `waiting` keeps its order while this stands
   * still, and only drops what left the queue (`isPending`).
   */
  pendingRevision(): number;
  /** Whether the message is in the queue (aggregate state Pending) now. */
  isPending(id: string): boolean;
  /**
   * Messages in a given aggregate state (e.g. Processed after a crash); with `since`, only those
   * that reached it at or after that time (`states[state]`), so a caller never loads years of
   * Sent or Failed messages to look at the last hour.
   */
  inState(state: MessageState, since?: number): MessageRecord[];
  /**
   * Every hand-over to a modem (`states.Processed`, with the modem's `deviceId`) after `after`
   * and before `before`, of messages now Processed, Sent, Delivered or Failed: what the rate
   * limiter's windows need after a restart, without reading whole messages.
   */
  handOversBetween(after: number, before: number): HandOver[];
  /**
   * Per modem, the messages that reached Sent between `sentFrom` and `sentBefore`, asked for a
   * delivery report and still have none: how staff learn that reports stopped arriving.
   */
  awaitingReports(sentFrom: number, sentBefore: number): AwaitingReports[];
  /** How many messages are in a state, without building the list (hot path: every POST). */
  countInState(state: MessageState): number;
  /**
   * How many messages reached Failed at or after `since`, which is at most an hour back: read
   * from counts kept per minute, so the answer costs the same at any number of failures.
   */
  countFailedSince(since: number): number;
  count(): number;
  /** How many recipients the app's messages created at or after `since` have: its quota's count. */
  recipientsOfAppSince(appId: string, since: number): number;
  /** The highest `sequence` stored (0 for none): the next message's number follows it. */
  highestSequence(): number;
  /** Removes messages created before `before` that are in a final state; returns how many. */
  pruneOlderThan(before: number): Promise<number>;
}

export interface InboxQuery extends TimeRange {
  type?: IncomingType;
  /** Only the messages this audience sees (an app's incoming rule); absent: every message. */
  audience?: IncomingAudience;
  deviceId?: string;
  search?: string;
  limit: number;
  offset: number;
}

export interface InboxRepository {
  /**
   * Idempotent: returns false (and stores nothing) when the id is already stored. `inCommit`
   * runs synchronously inside the commit that stores a new record, so its own writes (the
   * webhook outbox's) are durable with the record or not at all.
   */
  insert(record: IncomingRecord, inCommit?: () => void): Promise<boolean>;
  get(id: string): IncomingRecord | undefined;
  /** Newest first (receivedAt descending); includes every write made before the call. */
  list(query: InboxQuery): Promise<Page<IncomingRecord>>;
  pruneOlderThan(before: number): Promise<number>;
  /** How many records are stored. */
  count(): number;
}

export interface StoredLogEntry extends LogRecord {
  id: number;
}

export interface LogQuery extends TimeRange {
  priority?: LogRecord['priority'];
  module?: string;
  limit?: number;
}

export interface LogRepository {
  /** Not awaited by the logger: logs are batched and must never slow the caller. */
  append(record: LogRecord): StoredLogEntry;
  /** Oldest first. */
  list(query: LogQuery): StoredLogEntry[];
  pruneOlderThan(before: number): Promise<number>;
}
