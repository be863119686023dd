/**
 * The chart's count triggers (schema step 6) made again for the states in `keys`: each state a
 * message reaches adds one to its quarter hour, for the gateway and for the message's modem.
 * `mayHoldCountedState` skips the JSON when the body cannot hold a counted state: a queued
 * message ({"states":{"Pending":…}}) would be parsed by json_each at every insert.
 */
export function stateCountTriggers(mayHoldCountedState: string, keys: readonly string[]): string {
  const counted = `key IN (${keys.map((key) => `'${key}'`).join(', ')})`;
  const firstReached = `AND json_extract(old.body, '$.states.' || key) IS NULL`;
  return `
  DROP TRIGGER messages_count_insert;
  DROP TRIGGER messages_count_update;
  DROP TRIGGER messages_device_count_insert;
  DROP TRIGGER messages_device_count_update;
  CREATE TRIGGER messages_count_insert AFTER INSERT ON messages
  WHEN ${mayHoldCountedState} BEGIN
    INSERT INTO event_counts (bucket, event, count)
      SELECT value - value % 900000, lower(key), 1 FROM json_each(new.body, '$.states') WHERE ${counted}
      ON CONFLICT (bucket, event) DO UPDATE SET count = count + 1;
  END;
  CREATE TRIGGER messages_count_update AFTER UPDATE OF body ON messages
  WHEN ${mayHoldCountedState} BEGIN
    INSERT INTO event_counts (bucket, event, count)
      SELECT value - value % 900000, lower(key), 1 FROM json_each(new.body, '$.states')
      WHERE ${counted} ${firstReached}
      ON CONFLICT (bucket, event) DO UPDATE SET count = count + 1;
  END;
  CREATE TRIGGER messages_device_count_insert AFTER INSERT ON messages
  WHEN new.device_id IS NOT NULL AND ${mayHoldCountedState} BEGIN
    INSERT INTO device_event_counts (device_id, bucket, event, count)
      SELECT new.device_id, value - value % 900000, lower(key), 1 FROM json_each(new.body, '$.states')
      WHERE ${counted}
      ON CONFLICT (device_id, bucket, event) DO UPDATE SET count = count + 1;
  END;
  CREATE TRIGGER messages_device_count_update AFTER UPDATE OF body ON messages
  WHEN new.device_id IS NOT NULL AND ${mayHoldCountedState} BEGIN
    INSERT INTO device_event_counts (device_id, bucket, event, count)
      SELECT new.device_id, value - value % 900000, lower(key), 1 FROM json_each(new.body, '$.states')
      WHERE ${counted} ${firstReached}
      ON CONFLICT (device_id, bucket, event) DO UPDATE SET count = count + 1;
  END;`;
}
