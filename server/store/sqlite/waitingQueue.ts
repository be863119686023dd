import type { ProcessingOrder } from '../../contract/domain/messageOrder.js';

/**
 * The waiting queue as a table of its own (schema version 25): one narrow row per Pending message,
 * kept by triggers on `messages` in the commit that queues it or takes it out, so the queue is
 * read a window at a time in queue order instead of being held in memory.
 *
 * Each row carries its place in both processing orders as one text key, so that a page of the
 * queue is one seek in an index (`key > last key`), whatever the mix of directions the order has:
 * priority, higher first; then the place of the message, or of its bulk send as a whole
 * (`batchSequence`), lower first for FIFO and higher first for LIFO; then `seq`, lower first
 * (contract/domain/messageOrder.ts, `compareMessages`, which test/store/waitingQueue.test.ts
 * holds this to). Priorities are a signed byte and places and sequences stay below 10^16, so
 * fixed-width decimal fields sort as the numbers do.
 */
/** The values of a queue row, for the message row `row` (`new` in a trigger). */
function queueValues(row: string): string {
  const place = `coalesce(json_extract(${row}.body, '$.batchSequence'), ${row}.seq)`;
  const priority = `printf('%03d', 127 - coalesce(json_extract(${row}.body, '$.priority'), 0))`;
  const fifoKey = `${priority} || printf('%016d%016d', ${place}, ${row}.seq)`;
  const lifoKey = `${priority} || printf('%016d%016d', 9999999999999999 - ${place}, ${row}.seq)`;
  return `${row}.id, ${fifoKey}, ${lifoKey}, json_extract(${row}.body, '$.scheduleAt'),
      json_extract(${row}.body, '$.validUntil')`;
}

const queueColumns = 'waiting (id, fifo_key, lifo_key, schedule_at, valid_until)';
const queueRow = `INSERT OR REPLACE INTO ${queueColumns} VALUES (${queueValues('new')});`;

export const waitingQueueStep = `
  CREATE TABLE waiting (
    id TEXT PRIMARY KEY,
    fifo_key TEXT NOT NULL,
    lifo_key TEXT NOT NULL,
    schedule_at INTEGER,
    valid_until INTEGER
  ) WITHOUT ROWID;
  CREATE INDEX waiting_fifo ON waiting (fifo_key, schedule_at, valid_until);
  CREATE INDEX waiting_lifo ON waiting (lifo_key, schedule_at, valid_until);
  CREATE INDEX waiting_by_schedule ON waiting (schedule_at) WHERE schedule_at IS NOT NULL;
  CREATE INDEX waiting_by_expiry ON waiting (valid_until) WHERE valid_until IS NOT NULL;
  CREATE TRIGGER waiting_insert AFTER INSERT ON messages WHEN new.state = 'Pending' BEGIN
    ${queueRow}
  END;
  CREATE TRIGGER waiting_update AFTER UPDATE OF state, body ON messages WHEN new.state = 'Pending' BEGIN
    ${queueRow}
  END;
  CREATE TRIGGER waiting_leave AFTER UPDATE OF state ON messages
  WHEN old.state = 'Pending' AND new.state <> 'Pending' BEGIN
    DELETE FROM waiting WHERE id = old.id;
  END;
  CREATE TRIGGER waiting_delete AFTER DELETE ON messages WHEN old.state = 'Pending' BEGIN
    DELETE FROM waiting WHERE id = old.id;
  END;
  INSERT INTO ${queueColumns} SELECT ${queueValues('queued')} FROM messages AS queued
    WHERE queued.state = 'Pending';
`;

/** The key column that orders the queue in `order`. */
export function waitingKeyColumn(order: ProcessingOrder): 'fifo_key' | 'lifo_key' {
  return order === 'FIFO' ? 'fifo_key' : 'lifo_key';
}
