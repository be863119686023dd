import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../server/clock/clock.js';
import { createLogger } from '../server/logging/logger.js';
import { databaseFileName } from '../server/store/sqlite/database.js';
import { openStorage } from '../server/store/storage.js';
import { describeMachine, machineLine } from './support/machine.js';
import { prefillStore } from './support/prefill.js';
import { median, percentile } from './support/stats.js';

/**
 * What reading page 1 of `GET /messages` (50 message views, newest first) costs over a large
 * history, with and without content: the round trip to the page reader's thread, the SQL and
 * the views as they are listed (pagedRecords.ts). Not part of `npm run bench`: it prefills its
 * own store, which takes minutes at the default size.
 *
 *   npx tsx bench/pageReadCost.ts [--messages 200000] [--reads 300] [--data-dir <dir>]
 *
 * With `--data-dir`, a directory that holds a store is read as it is (and brought up to date
 * first: the time to open it includes the schema steps it lacks) and kept; one without is
 * prefilled and kept, so another build can read the same history.
 */
function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

async function main(): Promise<void> {
  const messages = Number(option('messages') ?? 200_000);
  const reads = Number(option('reads') ?? 300);
  const keptDir = option('data-dir');
  const dataDir = keptDir ?? (await mkdtemp(join(tmpdir(), 'sms-bench-pages-')));
  try {
    if (!existsSync(join(dataDir, databaseFileName))) {
      const filledAt = performance.now();
      await prefillStore({ dataDir, messages, incoming: 0 });
      console.log(`prefilled ${messages} messages in ${seconds(performance.now() - filledAt)}`);
    }
    const openedAt = performance.now();
    const storage = await openStorage({
      dataDir,
      clock: systemClock,
      logger: createLogger({ level: 'ERROR', sinks: [] }),
    });
    console.log(`opened the store in ${seconds(performance.now() - openedAt)}`);
    try {
      const forms = [true, false].map((withContent) => ({ withContent, unassignedDeviceId: undefined }));
      const times = new Map(forms.map((form) => [form, [] as number[]]));
      // Warm-up: the reader threads start, the page cache fills.
      for (const form of forms)
        for (let read = 0; read < 20; read++) await storage.messages.list({ limit: 50, offset: 0 }, form);
      for (let read = 0; read < reads; read++) {
        for (const form of forms) {
          const startedAt = performance.now();
          const page = await storage.messages.list({ limit: 50, offset: 0 }, form);
          times.get(form)?.push(performance.now() - startedAt);
          if (page.total !== messages) throw new Error(`page total ${page.total}, expected ${messages}`);
        }
      }
      console.log(
        machineLine(describeMachine()),
        `load average ${loadavg()
          .map((load) => load.toFixed(2))
          .join(' ')}`,
      );
      for (const form of forms) {
        const measured = times.get(form) ?? [];
        console.log(
          `page 1 of 50 views ${form.withContent ? 'with' : 'without'} content over ${messages} messages: ` +
            `median ${median(measured).toFixed(3)} ms, p90 ${percentile(measured, 90).toFixed(3)} ms (${reads} reads)`,
        );
      }
    } finally {
      await storage.close();
    }
  } finally {
    if (keptDir === undefined) await rm(dataDir, { recursive: true, force: true });
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

await main();
