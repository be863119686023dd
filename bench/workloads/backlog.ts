import type { BenchSizes } from '../support/benchSizes.js';
import type { Datasets } from '../support/dataset.js';
import { jsonHeaders, postMessage, textOfParts } from '../support/gatewayApi.js';
import { type GatewayLaunch, type GatewayProcess, startGatewayProcess } from '../support/gatewayProcess.js';
import { residentBytes } from '../support/processStats.js';
import { startPtyModemFleet } from '../support/ptyModems.js';
import { countSyscall } from '../support/syscallCount.js';
import { fixed, mebibytes, type Table } from '../support/table.js';
import { waitForOnlineModems, waitUntil } from './modemPath.js';

/**
 * A campaign queued up front: simulated modems that take a second per SMS (the radio's pace, not
 * zero as in the modem-path table) and a queue filled while sending is paused, then released.
 * Ideal is every modem busy all the time: `queued / modems` seconds for the messages timed.
 */
const sendDelayMs = 1_000;
const POST_CONCURRENCY = 16;

interface BacklogRun {
  modems: number;
  queued: number;
}

interface BacklogMeasurement {
  timed: number;
  seconds: number;
  residentEmpty: number;
  /** RSS once `warmQueue` messages are queued (the fill's load has grown the process by then). */
  residentWarm: number | undefined;
  residentQueued: number;
  /** fdatasync calls of the gateway while the timed messages were handed over. */
  syncs: number | undefined;
}

/**
 * Serving the first thousands of POSTs grows the process whatever the queue holds (V8's young
 * generation, malloc's arenas); RSS at this many queued against RSS at the end is what the
 * queue itself adds.
 */
const warmQueue = 10_000;

export async function runBacklog(
  sizes: BenchSizes,
  datasets: Datasets,
  launch: GatewayLaunch,
): Promise<Table> {
  const runs: BacklogRun[] = [
    ...sizes.backlogQueues.map((queued) => ({ modems: sizes.backlogModems, queued })),
    { modems: 4, queued: 4 * sizes.backlogSeconds },
  ];
  const rows: string[][] = [];
  for (const run of runs) {
    const measured = await measure(run, sizes, datasets, launch);
    const ideal = Math.ceil(measured.timed / run.modems) * (sendDelayMs / 1000);
    const { residentWarm } = measured;
    rows.push([
      `${run.queued.toLocaleString('en-US')} queued, ${run.modems} modems`,
      fixed(measured.seconds / ideal, 2),
      fixed(measured.timed / measured.seconds, 1),
      measured.syncs === undefined ? 'n/a (strace)' : fixed(measured.syncs / measured.timed, 2),
      `${mebibytes(measured.residentEmpty)} / ${residentWarm === undefined ? '—' : mebibytes(residentWarm)} / ${mebibytes(measured.residentQueued)}`,
      residentWarm === undefined ? '—' : mebibytes(measured.residentQueued - residentWarm),
    ]);
  }
  return {
    title: `Backlog (simulated modems on ptys, ${sendDelayMs / 1000} s per SMS)`,
    headers: [
      'workload',
      '× ideal',
      'SMS/s',
      'fdatasync per hand-over',
      `RSS: empty / ${warmQueue.toLocaleString('en-US')} / all queued`,
      `queue adds past ${warmQueue.toLocaleString('en-US')}`,
    ],
    rows,
    notes: [
      `The queue is filled through POST /messages (${POST_CONCURRENCY} at a time) while sending is paused, ` +
        `then released; timed from the release until the first min(queued, modems × ${sizes.backlogSeconds}) ` +
        'messages were accepted by the modems. Ideal: every modem busy the whole time.',
      "fdatasync per hand-over: the gateway's fdatasync calls over that time (strace -f -c, every thread, " +
        'checkpoints included) divided by the messages timed.',
      `RSS (VmRSS) is read ${sizes.settleMs / 1000} s after the modems came online, ${sizes.settleMs / 1000} s ` +
        `after the ${warmQueue.toLocaleString('en-US')}th message was queued and ${sizes.settleMs / 1000} s after ` +
        'the last, all while paused, with the database threads gone (`--db-thread-idle 1000`).',
    ],
  };
}

async function measure(
  run: BacklogRun,
  sizes: BenchSizes,
  datasets: Datasets,
  launch: GatewayLaunch,
): Promise<BacklogMeasurement> {
  const fleet = await startPtyModemFleet(run.modems, { sendDelayMs });
  try {
    const gateway = await startGatewayProcess({
      dataDir: await datasets.empty(),
      modems: fleet.paths,
      // The database threads (page readers, checkpointer) leave after a second idle, so that the
      // memory read after the fill is what the queue holds, not what the fill's load started.
      extraArgs: ['--max-pending', String(Math.max(2 * run.queued, 1_000)), '--db-thread-idle', '1000'],
      ...launch,
    });
    try {
      await waitForOnlineModems(gateway, run.modems);
      await setPaused(gateway, true);
      await settle(sizes);
      const residentEmpty = residentBytes(gateway.pid);
      let residentWarm: number | undefined;
      if (run.queued > warmQueue) {
        await fill(gateway, warmQueue);
        await settle(sizes);
        residentWarm = residentBytes(gateway.pid);
      }
      await fill(gateway, run.queued - (residentWarm === undefined ? 0 : warmQueue));
      await settle(sizes);
      const residentQueued = residentBytes(gateway.pid);
      const timed = Math.min(run.queued, run.modems * sizes.backlogSeconds);
      const syncCount = await countSyscall(gateway.pid, 'fdatasync');
      const before = fleet.acceptedCount();
      const startedAt = performance.now();
      await setPaused(gateway, false);
      await waitUntil(
        () => fleet.acceptedCount() >= before + timed,
        Math.max(120_000, 10 * timed * sendDelayMs),
        `${timed} messages to reach the modems`,
      );
      const seconds = (performance.now() - startedAt) / 1000;
      const syncs = await syncCount?.stop();
      return { timed, seconds, residentEmpty, residentWarm, residentQueued, syncs };
    } finally {
      await gateway.stop();
    }
  } finally {
    await fleet.close();
  }
}

async function setPaused(gateway: GatewayProcess, paused: boolean): Promise<void> {
  const response = await fetch(`${gateway.url}/gateway/v1/sending`, {
    method: 'POST',
    headers: jsonHeaders,
    body: JSON.stringify({ paused }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`POST /gateway/v1/sending answered ${response.status}`);
}

async function fill(gateway: GatewayProcess, queued: number): Promise<void> {
  let next = 0;
  const poster = async () => {
    while (next < queued) {
      next++;
      const posted = await postMessage(gateway.url, textOfParts(1), { withDeliveryReport: false });
      if (posted.status !== 202) throw new Error(`POST /messages answered ${posted.status}`);
    }
  };
  await Promise.all(Array.from({ length: POST_CONCURRENCY }, poster));
}

function settle(sizes: BenchSizes): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, sizes.settleMs));
}
