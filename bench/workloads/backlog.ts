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
  /** RSS of the paused gateway with its modems online and nothing queued, once quiet. */
  residentEmpty: number;
  /** RSS right after the fill: what serving it grew, besides what the queue holds. */
  residentFilled: number;
  /** RSS once quiet after the fill (big queues only): what the queue itself holds. */
  residentQueued: number | undefined;
  /** fdatasync calls of the gateway while the timed messages were handed over. */
  syncs: number | undefined;
}

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
    const { residentQueued } = measured;
    rows.push([
      `${run.queued.toLocaleString('en-US')} queued, ${run.modems} modems`,
      fixed(measured.seconds / ideal, 2),
      fixed(measured.timed / measured.seconds, 1),
      measured.syncs === undefined ? 'n/a (strace)' : fixed(measured.syncs / measured.timed, 2),
      `${mebibytes(measured.residentEmpty)} / ${mebibytes(measured.residentFilled)} / ${residentQueued === undefined ? '—' : mebibytes(residentQueued)}`,
      residentQueued === undefined ? '—' : mebibytes(residentQueued - measured.residentEmpty),
    ]);
  }
  return {
    title: `Backlog (simulated modems on ptys, ${sendDelayMs / 1000} s per SMS)`,
    headers: [
      'workload',
      '× ideal',
      'SMS/s',
      'fdatasync per hand-over',
      `RSS: empty / after the fill / ${sizes.quietMs / 1000} s later`,
      'the queue adds',
    ],
    rows,
    notes: [
      `The queue is filled through POST /messages (${POST_CONCURRENCY} at a time) while sending is paused, ` +
        `then released; timed from the release until the first min(queued, modems × ${sizes.backlogSeconds}) ` +
        'messages were accepted by the modems. Ideal: every modem busy the whole time.',
      "fdatasync per hand-over: the gateway's fdatasync calls over that time (strace -f -c, every thread, " +
        'checkpoints included) divided by the messages timed.',
      `RSS (VmRSS), all while paused with the database threads gone (\`--db-thread-idle 1000\`): empty is read ` +
        `${sizes.quietMs / 1000} s after the modems came online, then ${sizes.settleMs / 1000} s and ` +
        `${sizes.quietMs / 1000} s after the last message was queued (the last reading from ` +
        `${sizes.backlogQuietFrom.toLocaleString('en-US')} queued up). The queue adds: the last reading less the empty one.`,
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
      const quietRead = run.queued >= sizes.backlogQuietFrom;
      await pause(quietRead ? sizes.quietMs : sizes.settleMs);
      const residentEmpty = residentBytes(gateway.pid);
      await fill(gateway, run.queued);
      await pause(sizes.settleMs);
      const residentFilled = residentBytes(gateway.pid);
      let residentQueued: number | undefined;
      if (quietRead) {
        await pause(sizes.quietMs - sizes.settleMs);
        residentQueued = residentBytes(gateway.pid);
      }
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
      return { timed, seconds, residentEmpty, residentFilled, residentQueued, syncs };
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

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
