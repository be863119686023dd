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

export const postConcurrencies = [1, 16, 64] as const;

export async function runHttpWorkloads(
  sizes: BenchSizes,
  datasets: Datasets,
  launch: GatewayLaunch,
): Promise<Table> {
  const rows: string[][] = [];
  const storedLabel = sizes.stored.toLocaleString('en-US');
  for (const stored of [false, true]) {
    const dataDir = stored ? await datasets.stored() : await datasets.empty();
    const gateway = await startHttpGateway(dataDir, launch);
    try {
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
        for (const path of storedReads(Date.now())) {
          const measured = await repeat(sizes, () =>
            load(gateway, { path, method: 'GET', connections: 16, seconds: sizes.httpSeconds }),
          );
          rows.push(
            row(
              `GET ${path.replace(/from=[^&]+&to=[^&]+/, 'from=<3 days ago>&to=<2 days ago>')}, c=16, ${storedLabel} stored`,
              measured,
            ),
          );
        }
      }
    } finally {
      await gateway.stop();
    }
  }
  return {
    title: 'HTTP API (autocannon; gateway in a child process)',
    headers: ['workload', 'req/s (2xx)', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'],
    rows,
    notes: [
      `Median of ${sizes.runs} run(s) of ${sizes.httpSeconds} s each. POST bodies are one-part texts; ` +
        'each 202 means the message was committed to the database with its WAL fsynced.',
    ],
  };
}

/**
 * The reads the UI makes of a long history: the newest page; one day's failed messages (the
 * stored messages span the last week, one in fifty failed); a search for a number fragment (the
 * prefill's numbers repeat every 100,000 messages: a thousand matches per million); the inbox.
 */
function storedReads(now: number): string[] {
  const day = 24 * 60 * 60_000;
  const from = new Date(now - 3 * day).toISOString();
  const to = new Date(now - 2 * day).toISOString();
  return [
    '/messages?limit=50',
    `/messages?limit=50&state=Failed&from=${from}&to=${to}`,
    '/messages?limit=50&search=4477009123',
    '/inbox?limit=50',
    `/inbox?limit=50&from=${from}&to=${to}&search=4477009123`,
  ];
}

async function startHttpGateway(dataDir: string, launch: GatewayLaunch): Promise<GatewayProcess> {
  return startGatewayProcess({
    dataDir,
    ...launch,
    modems: [join(dataDir, 'no-modem-here')],
    // Every accepted POST stays Pending here; the default cap (100,000) would turn them into 503s.
    extraArgs: ['--max-pending', '10000000'],
  });
}

async function repeat(sizes: BenchSizes, measure: () => Promise<HttpMeasurement>): Promise<HttpMeasurement> {
  const runs: HttpMeasurement[] = [];
  for (let run = 0; run < sizes.runs; run++) runs.push(await measure());
  const mid = (pick: (measurement: HttpMeasurement) => number) => median(runs.map(pick));
  return {
    requestsPerSecond: mid((m) => m.requestsPerSecond),
    p50Ms: mid((m) => m.p50Ms),
    p99Ms: mid((m) => m.p99Ms),
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

function row(label: string, measured: HttpMeasurement): string[] {
  return [
    label,
    fixed(measured.requestsPerSecond),
    fixed(measured.p50Ms, 1),
    fixed(measured.p99Ms, 1),
    String(measured.non2xx),
    String(measured.errors),
  ];
}
