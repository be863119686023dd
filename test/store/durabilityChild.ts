/**
 * Child process for the kill -9 durability test: opens the store in the data directory given as
 * the first argument and inserts messages from 16 concurrent writers until killed, printing
 * `ok <id>` after each insert's promise resolved (i.e. once the gateway would answer 202).
 */
import { systemClock } from '../../server/clock/clock.js';
import { silentLogger } from '../../server/logging/logger.js';
import { openStorage } from '../../server/store/storage.js';
import { message } from './storeTestKit.js';

const [dataDir, prefix] = process.argv.slice(2);
if (!dataDir || !prefix) throw new Error('usage: durabilityChild <dataDir> <idPrefix>');

const storage = await openStorage({ dataDir, clock: systemClock, logger: silentLogger });
process.stdout.write('ready\n');

async function writer(index: number): Promise<void> {
  for (let n = 0; ; n++) {
    const id = `${prefix}-${index}-${n}`;
    await storage.messages.insert(message({ id, createdAt: Date.now(), sequence: n }));
    process.stdout.write(`ok ${id}\n`);
  }
}

await Promise.all(Array.from({ length: 16 }, (_, index) => writer(index)));
