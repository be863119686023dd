import type { BenchSizes } from '../support/benchSizes.js';
import type { Datasets } from '../support/dataset.js';
import { postMessage, textOfParts } from '../support/gatewayApi.js';
import {
  basicAuthorization,
  type GatewayLaunch,
  type GatewayProcess,
  startGatewayProcess,
} from '../support/gatewayProcess.js';
import { cpuMilliseconds, residentBytes } from '../support/processStats.js';
import { type PtyModemFleet, startPtyModemFleet } from '../support/ptyModems.js';
import { median, percentile } from '../support/stats.js';
import { fixed, mebibytes, type Table } from '../support/table.js';

/**
 * The send path end to end: POST → journal → scheduler → modem driver → AT+CMGS over a real pty
 * → the simulated modem (zero reply and send delay) in this process.
 */
export const modemCounts = [1, 4, 16] as const;

export interface ModemPathResult {
  table: Table;
  /** Highest resident memory of the gateway during the 16-modem run, bytes. */
  peakResidentBytes16: number;
  /** Single-part messages per second through one modem (median). */
  oneModemRate: number;
  /** Idle POST → PDU at the modem, median ms. */
  idleLatencyMs: number;
}

interface DrainMeasurement {
  messagesPerSecond: number;
  cpuMsPerMessage: number;
  peakResidentBytes: number;
}

/** How often the gateway's memory is sampled during a drain. */
const RSS_SAMPLE_MS = 100;
const POST_CONCURRENCY = 16;

export async function runModemWorkloads(
  sizes: BenchSizes,
  datasets: Datasets,
  launch: GatewayLaunch,
): Promise<ModemPathResult> {
  const rows: string[][] = [];
  let peakResidentBytes16 = 0;
  let oneModemRate = Number.NaN;
  let idleLatencyMs = Number.NaN;
  for (const count of modemCounts) {
    const fleet = await startPtyModemFleet(count);
    // A gateway that fails to start must not leave the modems' socat processes behind.
    const gateway = await startGatewayProcess({
      dataDir: await datasets.empty(),
      modems: fleet.paths,
      ...launch,
    }).catch(async (error: unknown) => {
      await fleet.close();
      throw error;
    });
    try {
      await waitForOnlineModems(gateway, count);
      // Let start-up work (SIM reads, the first health round) finish before timing anything.
      await new Promise((resolve) => setTimeout(resolve, sizes.settleMs));
      for (const parts of [1, 3] as const) {
        const runs: DrainMeasurement[] = [];
        for (let run = 0; run < sizes.runs; run++)
          runs.push(await drain(gateway, fleet, parts, sizes.modemMessages));
        const peak = Math.max(...runs.map((run) => run.peakResidentBytes));
        if (count === 16) peakResidentBytes16 = Math.max(peakResidentBytes16, peak);
        if (count === 1 && parts === 1) oneModemRate = median(runs.map((run) => run.messagesPerSecond));
        rows.push([
          `${parts === 1 ? 'single-part' : '3-part'}, ${count} modem${count === 1 ? '' : 's'}`,
          fixed(median(runs.map((run) => run.messagesPerSecond))),
          fixed(median(runs.map((run) => run.messagesPerSecond)) * parts),
          fixed(median(runs.map((run) => run.cpuMsPerMessage)), 2),
          mebibytes(peak),
        ]);
      }
      if (count === 1) {
        const latencies = await idleLatencies(gateway, fleet, sizes.latencySamples);
        idleLatencyMs = median(latencies);
        rows.push([
          `idle POST → PDU at modem (p50 / p99 ms, ${latencies.length} samples)`,
          `${fixed(median(latencies), 1)} / ${fixed(percentile(latencies, 99), 1)}`,
          '',
          '',
          '',
        ]);
      }
    } finally {
      await gateway.stop();
      await fleet.close();
    }
  }
  return {
    peakResidentBytes16,
    oneModemRate,
    idleLatencyMs,
    table: {
      title: 'Modem path (simulated modems on ptys, zero modem delay)',
      headers: ['workload', 'messages/s', 'PDUs/s', 'gateway CPU ms/message', 'peak RSS'],
      rows,
      notes: [
        `Median of ${sizes.runs} run(s) of ${sizes.modemMessages} messages each, posted ${POST_CONCURRENCY} at a ` +
          'time, timed from the first POST to the last PDU accepted by a modem (no delivery reports asked).',
        'CPU ms/message: user+system CPU of the gateway process (/proc/<pid>/stat) over the run / messages; ' +
          'it includes the HTTP request that queued each message.',
        'The simulated modems and socat run outside the gateway, on the same 2 cores.',
      ],
    },
  };
}

async function drain(
  gateway: GatewayProcess,
  fleet: PtyModemFleet,
  parts: 1 | 3,
  messages: number,
): Promise<DrainMeasurement> {
  const text = textOfParts(parts);
  const expectedPdus = fleet.acceptedCount() + messages * parts;
  let peakResidentBytes = residentBytes(gateway.pid);
  const sampler = setInterval(() => {
    peakResidentBytes = Math.max(peakResidentBytes, residentBytes(gateway.pid));
  }, RSS_SAMPLE_MS);
  const cpuBefore = cpuMilliseconds(gateway.pid);
  const startedAt = performance.now();
  try {
    let next = 0;
    const poster = async () => {
      while (next < messages) {
        next++;
        const posted = await postMessage(gateway.url, text, { withDeliveryReport: false });
        if (posted.status !== 202) throw new Error(`POST /messages answered ${posted.status}`);
      }
    };
    await Promise.all(Array.from({ length: POST_CONCURRENCY }, poster));
    await waitUntil(() => fleet.acceptedCount() >= expectedPdus, 120_000, 'every PDU to reach a modem');
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - startedAt) / 1000;
  return {
    messagesPerSecond: messages / seconds,
    cpuMsPerMessage: (cpuMilliseconds(gateway.pid) - cpuBefore) / messages,
    peakResidentBytes,
  };
}

/** POST one message to an idle gateway and time until its PDU is at the modem, many times. */
async function idleLatencies(
  gateway: GatewayProcess,
  fleet: PtyModemFleet,
  samples: number,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    // Let the previous send settle so every sample starts from an idle gateway and modem.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = fleet.acceptedCount();
    const startedAt = performance.now();
    const posted = await postMessage(gateway.url, textOfParts(1), { withDeliveryReport: false });
    if (posted.status !== 202) throw new Error(`POST /messages answered ${posted.status}`);
    // Poll on every turn of this process's loop: the modem's pty data arrives through it.
    await waitUntil(() => fleet.acceptedCount() > before, 10_000, 'the PDU to reach the modem', true);
    latencies.push(performance.now() - startedAt);
  }
  return latencies;
}

export async function waitForOnlineModems(gateway: GatewayProcess, count: number): Promise<void> {
  let online = 0;
  await waitUntil(
    async () => {
      const response = await fetch(`${gateway.url}/devices`, {
        headers: { authorization: basicAuthorization },
      });
      const devices = (await response.json()) as { modem: { status: string } }[];
      online = devices.filter((device) => device.modem.status === 'ready').length;
      return online >= count;
    },
    60_000,
    `${count} modems to come online`,
  );
}

export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  tight = false,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => (tight ? setImmediate(resolve) : setTimeout(resolve, 10)));
  }
}
