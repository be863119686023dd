import type { Clock } from '../../server/clock/clock.js';
import { systemClock } from '../../server/clock/clock.js';
import type { IncomingRecord } from '../../server/contract/domain/incoming.js';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { e164PeerKey } from '../../server/contract/domain/peerKey.js';
import { createLogger } from '../../server/logging/logger.js';
import { ConversationIndex } from '../../server/services/desk/conversations/conversationIndex.js';
import { CoreReads } from '../../server/store/sqlite/coreReads.js';
import { openStorage } from '../../server/store/storage.js';

/**
 * Fills a data directory the way months of use would: `messages` outgoing messages (delivered,
 * one in fifty failed) and `incoming` received ones, written straight into the store (no HTTP,
 * no modem) in group commits of `BATCH` inserts, so a million take minutes, not hours. Records
 * are spread over the last `spanMs` so time-range reads see a realistic spread.
 *
 * Then the desk's conversation index is caught up, as the gateway's first start would do
 * (it files every stored message under its party before `/health` answers): done here once,
 * it is not repeated by every benchmarked start, nor left running beside a measurement.
 */
export interface PrefillOptions {
  dataDir: string;
  messages: number;
  incoming: number;
  spanMs?: number;
  clock?: Clock;
}

/**
 * Inserts per group commit. Large, because each commit is a fsync and a checkpoint of what it
 * wrote; the store's own checkpoint rule (every 5,000 changed rows) keeps the WAL bounded.
 */
const BATCH = 20_000;
const DEFAULT_SPAN_MS = 7 * 24 * 60 * 60_000;

export async function prefillStore(options: PrefillOptions): Promise<void> {
  const clock = options.clock ?? systemClock;
  const storage = await openStorage({
    dataDir: options.dataDir,
    clock,
    logger: createLogger({ level: 'ERROR', sinks: [] }),
  });
  try {
    // A page cache that holds the indexes' hot pages (SQLite's default is 2 MB): at 1,000,000
    // rows the inserts otherwise re-read their index pages from the OS at every batch.
    storage.sqlite.db.pragma('cache_size = -262144');
    const now = clock.now();
    const span = options.spanMs ?? DEFAULT_SPAN_MS;
    const at = (index: number, count: number) => now - span + Math.floor((span * index) / Math.max(count, 1));
    await insertInBatches(options.messages, (index) =>
      storage.messages.insert(storedMessage(index, at(index, options.messages))),
    );
    await insertInBatches(options.incoming, (index) =>
      storage.inbox.insert(receivedMessage(index, at(index, options.incoming))),
    );
    // Every prefilled number is written with its country code, so no default country is needed.
    const { db, commits } = storage.sqlite;
    await new ConversationIndex(
      new CoreReads(db),
      db,
      commits,
      e164PeerKey(() => null),
    ).catchUp();
  } finally {
    await storage.close();
  }
}

/** Each insert resolves once durable; the inserts of one batch share one group commit. */
async function insertInBatches(count: number, insert: (index: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += BATCH) {
    const writes: Promise<unknown>[] = [];
    for (let index = start; index < Math.min(start + BATCH, count); index++) writes.push(insert(index));
    await Promise.all(writes);
  }
}

function phoneNumber(index: number): string {
  return `+4477009${String(index % 100_000).padStart(5, '0')}`;
}

/** One message in fifty failed, so "the failed ones of a day" is a selective filter, as in life. */
function storedMessage(index: number, createdAt: number): MessageRecord {
  const delivered = deliveredMessage(index, createdAt);
  if (index % 50 !== 49) return delivered;
  return {
    ...delivered,
    recipients: delivered.recipients.map((recipient) => ({
      ...recipient,
      state: 'Failed',
      error: 'CMS ERROR 500',
      parts: [{ reference: index % 256 }],
    })),
    states: { Pending: createdAt, Processed: createdAt + 50, Failed: createdAt + 900 },
    state: 'Failed',
  };
}

function deliveredMessage(index: number, createdAt: number): MessageRecord {
  return {
    id: `prefill-${index}`,
    content: { kind: 'text', text: `Stored message number ${index}: your code is ${100_000 + index}.` },
    recipients: [
      {
        phoneNumber: phoneNumber(index),
        state: 'Delivered',
        parts: [{ reference: index % 256, reportStatus: 0 }],
        updatedAt: createdAt + 4_000,
      },
    ],
    deviceId: 'prefill-device',
    withDeliveryReport: true,
    priority: 0,
    isEncrypted: false,
    createdAt,
    sequence: index + 1,
    states: {
      Pending: createdAt,
      Processed: createdAt + 50,
      Sent: createdAt + 900,
      Delivered: createdAt + 4_000,
    },
    state: 'Delivered',
  };
}

function receivedMessage(index: number, receivedAt: number): IncomingRecord {
  return {
    id: `prefill-in-${index}`,
    type: 'SMS',
    deviceId: 'prefill-device',
    simNumber: 1,
    sender: phoneNumber(index),
    content: `Reply number ${index}: yes, see you at ${index % 24}:00.`,
    sentAt: receivedAt - 2_000,
    receivedAt,
  };
}
