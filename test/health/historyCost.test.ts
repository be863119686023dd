import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { silentLogger } from '../../server/logging/logger.js';
import { HealthService } from '../../server/services/health/healthService.js';
import { openStorage, type Storage } from '../../server/store/storage.js';
import { temporaryDirectory } from '../store/storeTestKit.js';
import { deviceInfo, InMemoryDeviceDirectory } from '../support/httpHarness.js';

/**
 * GET /health must cost what an empty store costs, however much history the store holds
 * (ARCHITECTURE.md, "What a request may cost"). The store is filled through its repository, as
 * bench/support/prefill.ts does, with every message failed within the last hour: the one window
 * the `messages:failed` check looks at.
 */
const failedInTheLastHour = 100_000;
const batch = 20_000;
const hourMs = 3_600_000;

interface Gateway {
  storage: Storage;
  health: HealthService;
  remove(): Promise<void>;
}

const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
let empty: Gateway;
let full: Gateway;

async function openGateway(): Promise<Gateway> {
  const dir = await temporaryDirectory();
  const storage = await openStorage({ dataDir: dir.path, clock, logger: silentLogger });
  const devices = new InMemoryDeviceDirectory();
  devices.add(deviceInfo('modem-1', {}, clock.now()));
  const health = new HealthService({
    devices,
    messages: storage.messages,
    clock,
    storageWritable: () => storage.checkWritable(),
    version: '1.2.3',
    releaseId: 10203,
    thresholds: { weakSignalDbm: -100, failedWarn: 1, failedFail: 50, queueWarn: 80, queueFail: 100 },
  });
  return {
    storage,
    health,
    async remove() {
      await storage.close();
      await dir.remove();
    },
  };
}

/** Message `index` of `count`, failed at a time spread evenly over the last hour. */
function failedMessage(index: number, count: number): MessageRecord {
  const failedAt = clock.now() - hourMs + 1_000 + Math.floor(((hourMs - 2_000) * index) / count);
  const createdAt = failedAt - 900;
  return {
    id: `failed-${index}`,
    content: { kind: 'text', text: `Message number ${index}` },
    recipients: [
      {
        phoneNumber: `+4477009${String(index % 100_000).padStart(5, '0')}`,
        state: 'Failed',
        error: 'CMS ERROR 500',
        updatedAt: failedAt,
      },
    ],
    deviceId: 'modem-1',
    withDeliveryReport: true,
    priority: 0,
    isEncrypted: false,
    createdAt,
    sequence: index + 1,
    states: { Pending: createdAt, Processed: createdAt + 50, Failed: failedAt },
    state: 'Failed',
  };
}

/** The median time of `report()`, the two gateways asked in turn so both share the machine's moods. */
async function medianReportTimes(rounds: number): Promise<{ empty: number; full: number }> {
  const times = { empty: [] as number[], full: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (const [name, gateway] of [
      ['empty', empty],
      ['full', full],
    ] as const) {
      const started = performance.now();
      await gateway.health.report();
      times[name].push(performance.now() - started);
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return { empty: median(times.empty), full: median(times.full) };
}

beforeAll(async () => {
  empty = await openGateway();
  full = await openGateway();
  for (let start = 0; start < failedInTheLastHour; start += batch) {
    const writes: Promise<void>[] = [];
    for (let index = start; index < Math.min(start + batch, failedInTheLastHour); index++) {
      writes.push(full.storage.messages.insert(failedMessage(index, failedInTheLastHour)));
    }
    await Promise.all(writes);
  }
  // The fill's log goes into the database now, not while the probes below sync their files.
  full.storage.sqlite.db.pragma('wal_checkpoint(TRUNCATE)');
}, 120_000);

afterAll(async () => {
  await Promise.all([empty?.remove(), full?.remove()]);
});

describe('GET /health with a long history', () => {
  it(`counts ${failedInTheLastHour} messages failed in the last hour`, async () => {
    const report = await full.health.report();
    expect(report.checks['messages:failed']).toMatchObject({
      status: 'fail',
      observedValue: failedInTheLastHour,
    });
  });

  it(`answers within twice the time of an empty store at ${failedInTheLastHour} failed in the last hour`, async () => {
    // Warm both: the first calls open statements and page the indexes in. Then enough rounds
    // that the data directory's probe (a file written and synced) varies alike in both medians.
    await medianReportTimes(5);
    const times = await medianReportTimes(31);
    expect(
      times.full,
      `median ${times.full.toFixed(2)} ms against ${times.empty.toFixed(2)} ms`,
    ).toBeLessThan(2 * times.empty);
  }, 120_000);
});
