/**
 * Start-and-idle soak of the database's worker threads, on whatever Node runs the suite (CI runs
 * it on Node 26, 24, 22 and the machine's own). Each cycle starts the real CLI in its own process,
 * sends through the built-in simulated modem, lists (the page reader's thread starts), waits
 * until the threads have idled out, lists again (a new thread starts) and stops. A SQLite binding
 * whose statements outlive their thread's environment aborts the process at such an idle stop
 * (`Assertion failed: (env) != nullptr`); here every cycle must end with exit code 0.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ApiMessage } from '../integration/support/apiReads.js';
import { freePort, startChildGateway } from '../integration/support/childGateway.js';

/** Each cycle idles both threads out once; the binding this guards against aborted at an idle stop. */
const CYCLES = 10;
const MESSAGES_PER_CYCLE = 20;
const THREAD_IDLE_MS = 150;

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The OS threads of a process (Linux): a worker thread is one of them while it runs. */
async function threadCount(pid: number): Promise<number> {
  return (await readdir(`/proc/${pid}/task`)).length;
}

describe.runIf(process.platform === 'linux')('database threads that idle out and start again', () => {
  it(`survive ${CYCLES} start–send–list–idle–list–stop cycles with a clean exit`, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-soak-'));
    directories.push(dataDir);
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const gateway = await startChildGateway({
        dataDir,
        port: await freePort(),
        extraArgs: ['--simulate', '--db-thread-idle', String(THREAD_IDLE_MS)],
      });
      const context = () => `cycle ${cycle}:\n${gateway.output()}`;
      for (let index = 0; index < MESSAGES_PER_CYCLE; index++) {
        const response = await gateway.api.post('/messages', {
          textMessage: { text: `soak ${cycle}.${index}` },
          phoneNumbers: [`+44770090${String(index).padStart(4, '0')}`],
        });
        expect(response.status, context()).toBe(202);
      }
      const idle = await threadCount(gateway.pid);
      await vi.waitFor(
        async () => {
          const listed = await gateway.api.get<ApiMessage[]>(`/messages?limit=${MESSAGES_PER_CYCLE}`);
          expect(listed.status, context()).toBe(200);
          const waiting = listed.body.filter((message) => ['Pending', 'Processed'].includes(message.state));
          expect(waiting, context()).toEqual([]);
        },
        { timeout: 30_000, interval: 50 },
      );
      expect(await threadCount(gateway.pid), 'a page reader thread runs').toBeGreaterThan(idle);
      // Past the idle stop every database thread has left (the checkpointer's too).
      await vi.waitFor(async () => expect(await threadCount(gateway.pid)).toBeLessThanOrEqual(idle), {
        timeout: 10_000,
        interval: THREAD_IDLE_MS / 2,
      });
      await delay(THREAD_IDLE_MS);
      const again = await gateway.api.get<ApiMessage[]>('/messages?limit=5');
      expect(again.status, context()).toBe(200);
      expect(again.body, context()).toHaveLength(5);
      const exitCode = await gateway.stop();
      expect(exitCode, context()).toBe(0);
      expect(gateway.output(), context()).not.toMatch(/Assertion failed|Segmentation fault|core dumped/);
    }
  }, 300_000);
});
