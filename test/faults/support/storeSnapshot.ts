import { systemClock } from '../../../server/clock/clock.js';
import { type MessageRecord, MessageStates } from '../../../server/contract/domain/message.js';
import { createLogger } from '../../../server/logging/logger.js';
import { openStorage } from '../../../server/store/storage.js';

/** Every stored message of a STOPPED gateway's data directory, read with the store's own code. */
export async function readStoredMessages(dataDir: string): Promise<Map<string, MessageRecord>> {
  const storage = await openStorage({
    dataDir,
    clock: systemClock,
    logger: createLogger({ level: 'ERROR', sinks: [] }),
  });
  try {
    const records = MessageStates.flatMap((state) => storage.messages.inState(state));
    return new Map(records.map((record) => [record.id, record]));
  } finally {
    await storage.close();
  }
}
