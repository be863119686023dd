import { join } from 'node:path';
import type { BenchSizes } from '../support/benchSizes.js';
import type { Datasets } from '../support/dataset.js';
import { type GatewayLaunch, startGatewayProcess } from '../support/gatewayProcess.js';
import { cpuMilliseconds, residentBytes } from '../support/processStats.js';
import { startPtyModemFleet } from '../support/ptyModems.js';
import { median } from '../support/stats.js';
import { fixed, mebibytes, type Table } from '../support/table.js';

/** Memory and start-up time of the gateway process. */

export async function runFootprint(
  sizes: BenchSizes,
  datasets: Datasets,
  peakResidentBytes16: number | undefined,
  launch: GatewayLaunch,
): Promise<Table> {
  const storedLabel = sizes.stored.toLocaleString('en-US');
  const baselineLabel = sizes.baselineStored.toLocaleString('en-US');
  const idle = await idleResident(sizes, datasets, launch);
  const fourModems = await fourModemStart(sizes, datasets, launch);
  const baseline = await storedStart(sizes, await datasets.baseline(), launch);
  const stored = await storedStart(sizes, await datasets.stored(), launch);
  return {
    title: 'Footprint (gateway process)',
    headers: ['workload', 'value'],
    rows: [
      ['resident memory, idle (empty store, 1 modem)', mebibytes(idle)],
      [`resident memory, ${baselineLabel} stored`, mebibytes(baseline.residentBytes)],
      [`resident memory, ${storedLabel} stored`, mebibytes(stored.residentBytes)],
      [
        'resident memory, peak during the 16-modem run',
        peakResidentBytes16 === undefined ? '(needs the modem run)' : mebibytes(peakResidentBytes16),
      ],
      [`start → GET /health answers, 4 modems on their ports`, `${fixed(fourModems)} ms`],
      [`start → GET /health answers, ${baselineLabel} stored`, `${fixed(baseline.readyMs)} ms`],
      [`start → GET /health answers, ${storedLabel} stored`, `${fixed(stored.readyMs)} ms`],
      [`CPU time of that start, ${baselineLabel} stored`, `${fixed(baseline.readyCpuMs)} ms`],
      [`CPU time of that start, ${storedLabel} stored`, `${fixed(stored.readyCpuMs)} ms`],
    ],
    notes: [
      `"N stored" means N outgoing messages (one in fifty failed, the rest delivered) AND N received messages in the database.`,
      `Resident memory is VmRSS ${sizes.settleMs / 1000} s after ready. Start-up is the median of ${sizes.runs} ` +
        `restart(s) of an existing data directory, from spawn to the first answer (its CPU time, ` +
        'user + system from /proc, depends far less on what else the machine runs), running ' +
        `${launch.compiled ? 'the compiled dist/server/cli/main.js' : 'the TypeScript source through tsx (no dist/ built)'}.`,
    ],
  };
}

async function idleResident(sizes: BenchSizes, datasets: Datasets, launch: GatewayLaunch): Promise<number> {
  const fleet = await startPtyModemFleet(1);
  try {
    const gateway = await startGatewayProcess({
      dataDir: await datasets.empty(),
      modems: fleet.paths,
      ...launch,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, sizes.settleMs));
      return residentBytes(gateway.pid);
    } finally {
      await gateway.stop();
    }
  } finally {
    await fleet.close();
  }
}

/** The API answers whatever the modems do: a restart with 4 simulated modems behind ptys. */
async function fourModemStart(sizes: BenchSizes, datasets: Datasets, launch: GatewayLaunch): Promise<number> {
  const fleet = await startPtyModemFleet(4);
  try {
    const dataDir = await datasets.empty();
    await (await startGatewayProcess({ dataDir, modems: fleet.paths, ...launch })).stop();
    const readyTimes: number[] = [];
    for (let run = 0; run < sizes.runs; run++) {
      const gateway = await startGatewayProcess({ dataDir, modems: fleet.paths, ...launch });
      readyTimes.push(gateway.readyMs);
      await gateway.stop();
    }
    return median(readyTimes);
  } finally {
    await fleet.close();
  }
}

async function storedStart(
  sizes: BenchSizes,
  dataDir: string,
  launch: GatewayLaunch,
): Promise<{ readyMs: number; readyCpuMs: number; residentBytes: number }> {
  const modems = [join(dataDir, 'no-modem-here')];
  // The first start of a copied directory generates the credential hash and device list: a
  // restart is what a user waits through every day.
  await (await startGatewayProcess({ dataDir, modems, ...launch })).stop();
  const readyTimes: number[] = [];
  const readyCpuTimes: number[] = [];
  let resident = 0;
  for (let run = 0; run < sizes.runs; run++) {
    const gateway = await startGatewayProcess({ dataDir, modems, ...launch });
    readyTimes.push(gateway.readyMs);
    readyCpuTimes.push(cpuMilliseconds(gateway.pid));
    try {
      if (run === 0) {
        await new Promise((resolve) => setTimeout(resolve, sizes.settleMs));
        resident = residentBytes(gateway.pid);
      }
    } finally {
      await gateway.stop();
    }
  }
  return { readyMs: median(readyTimes), readyCpuMs: median(readyCpuTimes), residentBytes: resident };
}
