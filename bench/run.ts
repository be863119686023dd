/**
 * `npm run bench` (full, minutes) or `npm run bench -- --quick` (every workload tiny, seconds).
 * Prints the machine and one table per workload family; BENCHMARKS.md explains the figures.
 * `--only http`, `--only modem`, `--only link`, `--only history`, `--only stalls`, `--only backlog` or `--only footprint` reruns one family (the peers table needs
 * the modem-path run, so it comes only with the whole suite; so does the footprint's 16-modem
 * peak). The full run keeps its prefilled data directories between runs (`defaultCacheDir`);
 * `--fresh-data` builds them again. `--cpu-prof <dir>` has every gateway write a V8 CPU profile
 * into `<dir>` when it stops (open it in Chrome's DevTools, Performance tab).
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { fullSizes, quickSizes } from './support/benchSizes.js';
import { createDatasets, defaultCacheDir } from './support/dataset.js';
import { type GatewayLaunch, repositoryRoot } from './support/gatewayProcess.js';
import { describeMachine, machineLine } from './support/machine.js';
import { formatTable } from './support/table.js';
import { runBacklog } from './workloads/backlog.js';
import { runBulkStalls } from './workloads/bulkStalls.js';
import { runFootprint } from './workloads/footprint.js';
import { runHistorySize } from './workloads/historySize.js';
import { runHttpWorkloads } from './workloads/httpLoad.js';
import { runModemWorkloads } from './workloads/modemPath.js';
import { runPeers } from './workloads/peers.js';
import { runRelayLinkWorkloads } from './workloads/relayLink.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      'fresh-data': { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
    },
  });
  const families = ['http', 'modem', 'link', 'history', 'stalls', 'backlog', 'footprint'] as const;
  type Family = (typeof families)[number];
  if (values.only !== undefined && !families.includes(values.only as Family)) {
    throw new Error(`--only takes ${families.join(', ')}, not "${values.only}"`);
  }
  const runs = (family: Family) => values.only === undefined || values.only === family;
  const sizes = values.quick ? quickSizes : fullSizes;
  // The full run measures the product as shipped (compiled JavaScript, no tsx); the quick run
  // checks that the benchmarks still work against the source as it is now.
  const compiled = !sizes.quick;
  if (compiled) buildCore();
  const profileDir = values['cpu-prof'];
  const launch: GatewayLaunch = {
    compiled,
    ...(profileDir === undefined ? {} : { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] }),
  };

  process.stdout.write(`${machineLine(describeMachine())}\n`);
  process.stdout.write(
    `Mode: ${sizes.quick ? 'quick (tiny workloads: figures are NOT meaningful)' : 'full'}\n\n`,
  );
  // The quick run (part of `npm test`) leaves nothing behind; the full run's 1,000,000-row
  // templates take minutes to write, so they are kept.
  const datasets = await createDatasets(sizes.stored, sizes.baselineStored, {
    ...(sizes.quick ? {} : { cacheDir: defaultCacheDir }),
    fresh: values['fresh-data'],
    report: (line) => process.stderr.write(`${line}\n`),
  });
  try {
    if (runs('http')) {
      process.stdout.write(formatTable(await runHttpWorkloads(sizes, datasets, launch)));
      process.stdout.write('\n');
    }
    const modemPath = runs('modem') ? await runModemWorkloads(sizes, datasets, launch) : undefined;
    if (modemPath) process.stdout.write(`${formatTable(modemPath.table)}\n`);
    if (runs('link')) {
      process.stdout.write(`${formatTable(await runRelayLinkWorkloads(sizes, datasets, launch))}\n`);
    }
    if (runs('history')) process.stdout.write(`${formatTable(await runHistorySize(sizes))}\n`);
    if (runs('stalls')) process.stdout.write(`${formatTable(await runBulkStalls(sizes, launch))}\n`);
    if (runs('backlog')) process.stdout.write(`${formatTable(await runBacklog(sizes, datasets, launch))}\n`);
    if (runs('footprint')) {
      process.stdout.write(
        `${formatTable(await runFootprint(sizes, datasets, modemPath?.peakResidentBytes16, launch))}\n`,
      );
    }
    if (profileDir !== undefined) process.stderr.write(`CPU profiles of the gateways: ${profileDir}\n`);
    if (!modemPath || values.only !== undefined) return;
    // Last: it may install Debian packages, and the peers take a minute or two to drain a queue.
    const own = { messagesPerSecond: modemPath.oneModemRate, idleLatencyMs: modemPath.idleLatencyMs };
    process.stdout.write(formatTable(await runPeers(sizes, own)));
  } finally {
    await datasets.removeAll();
  }
}

function buildCore(): void {
  process.stderr.write('building dist/ (npm run build:core)…\n');
  const build = spawnSync('npm', ['run', 'build:core'], { cwd: repositoryRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build:core failed (exit ${build.status})`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
