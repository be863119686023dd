import { join } from 'node:path';
import autocannon from 'autocannon';
import type { BenchSizes } from '../support/benchSizes.js';
import type { Datasets } from '../support/dataset.js';
import { messageBody, textOfParts } from '../support/gatewayApi.js';
import {
  basicAuthorization,
  type GatewayLaunch,
  type GatewayProcess,
  startGatewayProcess,
} from '../support/gatewayProcess.js';
import { median } from '../support/stats.js';
import { fixed, type Table } from '../support/table.js';

/**
 * HTTP API under load (autocannon in this process, the gateway in a child). The gateway is given
 * a modem path that does not exist, so the queue only grows: these rows measure the API and the
 * durable insert, not the modem (that is the modem-path table).
 */
export interface HttpMeasurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** The medians of several runs, and each run's p99 in order: the median hides how far apart they are. */
interface RepeatedMeasurement extends HttpMeasurement {
  p99MsOfRuns: number[];
}

export const postConcurrencies = [1, 16, 64] as const;

export async function runHttpWorkloads(
  sizes: BenchSizes,
  datasets: Datasets,
  launch: GatewayLaunch,
): Promise<Table> {
  const rows: string[][] = [];
  const storedLabel = sizes.stored.toLocaleString('en-US');
  const readRow = async (gateway: GatewayProcess, path: string, label: string) => {
    const measured = await repeat(sizes, () =>
      load(gateway, { path, method: 'GET', connections: 16, seconds: sizes.httpSeconds }),
    );
    const shown = path.replace(/from=[^&]+&to=[^&]+/, 'from=<3 days ago>&to=<2 days ago>');
    rows.push(row(`GET ${shown}, c=16, ${label}`, measured));
  };
  for (const stored of [false, true]) {
    const dataDir = stored ? await datasets.stored() : await datasets.empty();
    await withHttpGateway(dataDir, launch, async (gateway) => {
      for (const connections of postConcurrencies) {
        const measured = await repeat(sizes, () =>
          load(gateway, {
            path: '/messages',
            method: 'POST',
            body: messageBody(textOfParts(1)),
            connections,
            seconds: sizes.httpSeconds,
          }),
        );
        rows.push(row(`POST /messages, c=${connections}, ${stored ? storedLabel : '0'} stored`, measured));
      }
      if (stored) {
        const pending = await pendingCount(gateway);
        await readRow(gateway, searchRead, `${storedLabel} stored, after the POST rows (${pending} Pending)`);
      }
    });
  }
  // The reads get a gateway of their own on a fresh copy: the POST rows leave every message they
  // accepted Pending, and so in memory (no modem here), far past --max-pending's default.
  await withHttpGateway(await datasets.stored(), launch, async (gateway) => {
    for (const path of storedReads(Date.now())) await readRow(gateway, path, `${storedLabel} stored`);
  });
  return {
    title: 'HTTP API (autocannon; gateway in a child process)',
    headers: ['workload', 'req/s (2xx)', 'p50 ms', 'p99 ms', 'p99 ms of each run', 'non-2xx', 'errors'],
    rows,
    notes: [
      `Median of ${sizes.runs} run(s) of ${sizes.httpSeconds} s each, with each run's p99 beside it. ` +
        'POST bodies are one-part texts; ' +
        'each 202 means the message was committed to the database with its WAL fsynced.',
      'The GET rows run on a gateway of their own, started on a fresh copy of the stored data; the row ' +
        '"after the POST rows" runs on the POST rows\' gateway, which holds every message they accepted ' +
        'Pending in memory (no modem here).',
    ],
  };
}

/** A search for a number fragment: the prefill's numbers repeat every 100,000 messages, so a thousand match per million. */
const searchRead = '/messages?limit=50&search=4477009123';

/**
 * The reads the UI makes of a long history: the newest page; one day's failed messages (the
 * stored messages span the last week, one in fifty failed); a number search; the inbox.
 */
function storedReads(now: number): string[] {
  const day = 24 * 60 * 60_000;
  const from = new Date(now - 3 * day).toISOString();
  const to = new Date(now - 2 * day).toISOString();
  return [
    '/messages?limit=50',
    `/messages?limit=50&state=Failed&from=${from}&to=${to}`,
    searchRead,
    '/inbox?limit=50',
    `/inbox?limit=50&from=${from}&to=${to}&search=4477009123`,
  ];
}

async function withHttpGateway(
  dataDir: string,
  launch: GatewayLaunch,
  measure: (gateway: GatewayProcess) => Promise<void>,
): Promise<void> {
  const gateway = await startGatewayProcess({
    dataDir,
    ...launch,
    modems: [join(dataDir, 'no-modem-here')],
    // Every accepted POST stays Pending here; the default cap (100,000) would turn them into 503s.
    extraArgs: ['--max-pending', '10000000'],
  });
  try {
    await measure(gateway);
  } finally {
    await gateway.stop();
  }
}

/** The gateway's Pending messages, as `X-Total-Count` of a one-row page says, with separators. */
async function pendingCount(gateway: GatewayProcess): Promise<string> {
  const response = await fetch(`${gateway.url}/messages?state=Pending&limit=1`, {
    headers: { authorization: basicAuthorization },
  });
  return Number(response.headers.get('x-total-count')).toLocaleString('en-US');
}

async function repeat(
  sizes: BenchSizes,
  measure: () => Promise<HttpMeasurement>,
): Promise<RepeatedMeasurement> {
  const runs: HttpMeasurement[] = [];
  for (let run = 0; run < sizes.runs; run++) runs.push(await measure());
  const mid = (pick: (measurement: HttpMeasurement) => number) => median(runs.map(pick));
  return {
    requestsPerSecond: mid((m) => m.requestsPerSecond),
    p50Ms: mid((m) => m.p50Ms),
    p99Ms: mid((m) => m.p99Ms),
    p99MsOfRuns: runs.map((m) => m.p99Ms),
    non2xx: runs.reduce((sum, m) => sum + m.non2xx, 0),
    errors: runs.reduce((sum, m) => sum + m.errors, 0),
  };
}

async function load(
  gateway: GatewayProcess,
  request: { path: string; method: 'GET' | 'POST'; body?: string; connections: number; seconds: number },
): Promise<HttpMeasurement> {
  const result = await autocannon({
    url: `${gateway.url}${request.path}`,
    method: request.method,
    headers: { authorization: basicAuthorization, 'content-type': 'application/json' },
    ...(request.body === undefined ? {} : { body: request.body }),
    connections: request.connections,
    duration: request.seconds,
  });
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function row(label: string, measured: RepeatedMeasurement): string[] {
  return [
    label,
    fixed(measured.requestsPerSecond),
    fixed(measured.p50Ms, 1),
    fixed(measured.p99Ms, 1),
    measured.p99MsOfRuns.map((p99) => fixed(p99)).join(' / '),
    String(measured.non2xx),
    String(measured.errors),
  ];
}
