import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basicAuthorization,
  type GatewayProcess,
  startGatewayProcess,
} from '../../bench/support/gatewayProcess.js';
import { residentBytes } from '../../bench/support/processStats.js';
import { createFuzzAgent, emptyTally, type FuzzTally, send, sendRaw } from './support/fuzzClient.js';
import { malformedRawRequest, malformedRequest } from './support/malformedRequests.js';
import { scaled } from './support/scale.js';
import { seededRandom } from './support/seededRandom.js';

const requests = scaled(5_000, 100_000);
const warmUp = scaled(1_000, 10_000);
const concurrency = 16;
/** Every 50th request is raw bytes that are not HTTP at all. */
const rawEvery = 50;
/**
 * Growth allowed between warm-up and the end: GC timing, not a leak (a leak grows with the
 * count). After the short form's 1,000 warm-up requests the heap is still settling, and on a
 * loaded CI machine collections come late (by tens of MB), so the short form only catches a
 * gross leak (≥ 24 KB a request); the full form's 100,000 requests catch a small one.
 */
const allowedGrowthBytes = scaled(96, 48) * 2 ** 20;

describe('malformed HTTP requests', () => {
  let root: string;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sms-faults-fuzz-'));
    gateway = await startGatewayProcess({
      dataDir: join(root, 'data'),
      modems: [join(root, 'no-modem-here')],
    });
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await rm(root, { recursive: true, force: true });
  });

  async function fire(
    count: number,
    random: ReturnType<typeof seededRandom>,
    tally: FuzzTally,
  ): Promise<void> {
    const agent = createFuzzAgent();
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const index = next++;
        if (index % rawEvery === rawEvery - 1) await sendRaw(gateway.url, malformedRawRequest(random), tally);
        else await send(gateway.url, agent, malformedRequest(random), tally);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    agent.destroy();
  }

  /**
   * Page reads sent at once: the first goes to the first page reader's thread and the next to
   * the second while the first is busy, so both run. The random requests read pages too, but
   * rarely two at once, and a thread that started only in the measured part (tens of MB under
   * tsx) would read as growth.
   */
  async function startPageReaders(): Promise<void> {
    const headers = { authorization: basicAuthorization };
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const response = await fetch(`${gateway.url}/messages?limit=500`, { headers });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }),
    );
  }

  it(
    'answers every one without a crash, without a 5xx and without growing in memory',
    async () => {
      const random = seededRandom();
      console.info(`HTTP fuzz seed ${random.seed} (FAULTS_SEED=${random.seed} replays it)`);
      const tally = emptyTally();
      await fire(warmUp, random, tally);
      await startPageReaders();
      const residentAfterWarmUp = residentBytes(gateway.pid);
      await fire(requests - warmUp, random, tally);
      const residentAtEnd = residentBytes(gateway.pid);
      console.info('HTTP fuzz statuses', Object.fromEntries(tally.byStatus), 'no answer', tally.noAnswer, {
        residentAfterWarmUpMiB: Math.round(residentAfterWarmUp / 2 ** 20),
        residentAtEndMiB: Math.round(residentAtEnd / 2 ** 20),
      });

      expect(tally.serverErrors).toEqual([]);
      const answered = [...tally.byStatus.values()].reduce((sum, count) => sum + count, 0);
      expect(answered + tally.noAnswer).toBe(requests);
      // Node's parser may close a connection on bytes that are not HTTP; HTTP requests are all answered.
      expect(tally.noAnswer).toBeLessThanOrEqual(Math.ceil(requests / rawEvery));
      expect(gateway.isRunning()).toBe(true);
      const health = await fetch(`${gateway.url}/health`);
      expect([200, 503]).toContain(health.status);
      expect(residentAtEnd - residentAfterWarmUp).toBeLessThan(allowedGrowthBytes);
    },
    // The short form often runs beside the bench smoke on two cores, whose CPU and fsync load
    // has stretched its 4 s alone to 35–120 s.
    scaled(300_000, 1_800_000),
  );
});
