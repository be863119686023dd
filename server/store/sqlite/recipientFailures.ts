/**
 * Failed recipients, counted per message (docs/desk.md "Failures that do not hide").
 *
 * A message to several numbers stays Sent when only some of them failed (the upstream rule of
 * `aggregateState`), so its state alone hides those failures. `failed_recipients` holds how many
 * of its recipients are Failed: the desk's Failed filter (`anyRecipientFailed`) is a walk of a
 * partial index that holds only the messages with one, and the dashboard counts a message as
 * failed on the day its first recipient failed, whatever its state.
 */

import { stateCountTriggers } from './stateCountTriggers.js';

/** SQL: how many of the recipients in `body` (a message record's JSON) are Failed. */
function failedIn(body: string): string {
  return `(SELECT count(*) FROM json_each(${body}, '$.recipients') WHERE json_extract(value, '$.state') = 'Failed')`;
}

/**
 * SQL: the quarter hour in which the first recipient of `row` failed; a recipient without its
 * own time (stored before recipients kept one) takes the message's latest state time.
 */
function firstFailureBucket(row: string): string {
  return `(SELECT min(at) - min(at) % 900000 FROM (
      SELECT coalesce(json_extract(value, '$.updatedAt'), ${row}.state_at, ${row}.created_at) AS at
      FROM json_each(${row}.body, '$.recipients') WHERE json_extract(value, '$.state') = 'Failed'))`;
}

/** SQL: adds one failed message of `row` to the gateway's and its modem's counts. */
function countFailure(row: string): string {
  return `
    INSERT INTO event_counts (bucket, event, count) VALUES (${firstFailureBucket(row)}, 'failed', 1)
      ON CONFLICT (bucket, event) DO UPDATE SET count = count + 1;
    INSERT INTO device_event_counts (device_id, bucket, event, count)
      SELECT ${row}.device_id, ${firstFailureBucket(row)}, 'failed', 1 WHERE ${row}.device_id IS NOT NULL
      ON CONFLICT (device_id, bucket, event) DO UPDATE SET count = count + 1;`;
}

/**
 * The schema step that adds `failed_recipients`, fills it from the stored records, and counts a
 * message as failed when its first recipient fails instead of when all of them have. The
 * messages already counted (those that are Failed) keep their counts; the others with a failed
 * recipient are counted at their first failure. `mayHoldCountedState` is schema.ts's guard of
 * the count triggers.
 */
export function recipientFailuresStep(mayHoldCountedState: string): string {
  return `
  ALTER TABLE messages ADD COLUMN failed_recipients INTEGER NOT NULL DEFAULT 0;
  UPDATE messages SET failed_recipients = ${failedIn('body')} WHERE instr(body, '"Failed"') > 0;
  CREATE INDEX messages_with_failures ON messages (created_at, seq) WHERE failed_recipients > 0;
  INSERT INTO event_counts (bucket, event, count)
    SELECT ${firstFailureBucket('messages')} AS bucket, 'failed', count(*) FROM messages
    WHERE failed_recipients > 0 AND state <> 'Failed' GROUP BY 1
    ON CONFLICT (bucket, event) DO UPDATE SET count = count + excluded.count;
  INSERT INTO device_event_counts (device_id, bucket, event, count)
    SELECT device_id, ${firstFailureBucket('messages')} AS bucket, 'failed', count(*) FROM messages
    WHERE failed_recipients > 0 AND state <> 'Failed' AND device_id IS NOT NULL GROUP BY 1, 2
    ON CONFLICT (device_id, bucket, event) DO UPDATE SET count = count + excluded.count;
  ${stateCountTriggers(mayHoldCountedState, ['Sent', 'Delivered'])}
  CREATE TRIGGER messages_failure_count_insert AFTER INSERT ON messages
  WHEN new.failed_recipients > 0 BEGIN ${countFailure('new')}
  END;
  CREATE TRIGGER messages_failure_count_update AFTER UPDATE OF failed_recipients ON messages
  WHEN old.failed_recipients = 0 AND new.failed_recipients > 0 BEGIN ${countFailure('new')}
  END;
  `;
}

/** The number of `recipients` that are Failed: the row's `failed_recipients`. */
export function failedRecipientCount(recipients: readonly { state: string }[]): number {
  return recipients.filter((recipient) => recipient.state === 'Failed').length;
}
