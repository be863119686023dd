import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchSizes } from '../support/benchSizes.js';
import { jsonHeaders } from '../support/gatewayApi.js';
import { type GatewayLaunch, startGatewayProcess } from '../support/gatewayProcess.js';
import { median } from '../support/stats.js';
import { fixed, type Table } from '../support/table.js';

/**
 * How long one big desk request holds the gateway: the longest wait for `/health/live` while it
 * runs, probed one request after another from this process (the gateway is a child process, so
 * the probe is a client's view of its event loop). The security review's bound: no single call
 * stalls the event loop over 200 ms.
 */
const TARGET_LONGEST_MS = 200;

interface BulkCall {
  label: string;
  path: string;
  body: () => unknown;
  /** The status the call must answer; anything else fails the benchmark. */
  status: number;
}

export async function runBulkStalls(sizes: BenchSizes, launch: GatewayLaunch): Promise<Table> {
  const count = sizes.quick ? 2_000 : 50_000;
  const queued = sizes.quick ? 500 : 10_000;
  const numbers = Array.from({ length: count }, (_, index) => `+4477009${String(index).padStart(5, '0')}`);
  const rows = numbers.map((phoneNumber, index) => ({ phoneNumber, fields: { order: `A-${index}` } }));
  const csv = `phone,name,groups\n${numbers.map((number, index) => `${number},Customer ${index},everyone`).join('\n')}\n`;
  const text = 'Your order {order} is ready';
  let groupId = '';
  const calls: BulkCall[] = [
    {
      label: `import ${count.toLocaleString('en-US')} contacts (CSV, commit)`,
      path: '/gateway/v1/contacts/import',
      body: () => ({ csv, mapping: { phoneNumber: 'phone', name: 'name', groups: 'groups' }, commit: true }),
      status: 200,
    },
    {
      label: `preview a campaign to ${count.toLocaleString('en-US')} CSV rows`,
      path: '/gateway/v1/campaigns/preview',
      body: () => ({ text, recipients: { rows } }),
      status: 200,
    },
    {
      label: `preview a campaign to ${count.toLocaleString('en-US')} typed numbers`,
      path: '/gateway/v1/campaigns/preview',
      body: () => ({ text: 'Hello {name}', recipients: { phoneNumbers: numbers } }),
      status: 200,
    },
    {
      label: `preview a campaign to a group of ${count.toLocaleString('en-US')}`,
      path: '/gateway/v1/campaigns/preview',
      body: () => ({ text: 'Hello {name}', recipients: { groupIds: [groupId] } }),
      status: 200,
    },
    {
      label: `start a campaign of ${queued.toLocaleString('en-US')} messages`,
      path: '/gateway/v1/campaigns',
      body: () => ({ text, recipients: { rows: rows.slice(0, queued) } }),
      status: 202,
    },
  ];

  const longest = new Map<string, number[]>(calls.map((call) => [call.label, []]));
  for (let run = 0; run < sizes.runs; run++) {
    const dataDir = await mkdtemp(join(tmpdir(), 'sms-bench-stalls-'));
    const gateway = await startGatewayProcess({ ...launch, dataDir });
    groupId = '';
    try {
      for (const call of calls) {
        const body = JSON.stringify(call.body());
        const { status, longestMs } = await healthDuring(gateway.url, () =>
          fetch(`${gateway.url}${call.path}`, { method: 'POST', headers: jsonHeaders, body }).then(
            async (response) => {
              await response.arrayBuffer();
              return response.status;
            },
          ),
        );
        if (status !== call.status) {
          throw new Error(`${call.label}: answered ${status}, not ${call.status}\n${gateway.output()}`);
        }
        longest.get(call.label)?.push(longestMs);
        if (groupId === '') groupId = await everyoneGroup(gateway.url);
      }
    } finally {
      await gateway.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  return {
    title: 'Bulk desk requests: the longest wait for /health/live meanwhile',
    headers: ['request', 'longest wait (median)', 'each run', 'target'],
    rows: calls.map((call) => {
      const samples = longest.get(call.label) ?? [];
      return [
        call.label,
        `${fixed(median(samples), 0)} ms`,
        samples.map((sample) => fixed(sample, 0)).join(' / '),
        `< ${TARGET_LONGEST_MS} ms`,
      ];
    }),
    notes: [
      `${sizes.runs} run(s), each on a fresh gateway (its built-in simulated modem only) that takes the requests in the order shown; ` +
        'the probe sends GET /health/live one after another (10 ms apart) from the bench process.',
    ],
  };
}

/** The longest wait for `/health/live`, probed one request after another, while `work` runs. */
async function healthDuring(
  url: string,
  work: () => Promise<number>,
): Promise<{ status: number; longestMs: number }> {
  let done = false;
  let longestMs = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      await fetch(`${url}/health/live`).then((response) => response.arrayBuffer());
      longestMs = Math.max(longestMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const status = await work().finally(() => {
    done = true;
  });
  await probing;
  return { status, longestMs };
}

async function everyoneGroup(url: string): Promise<string> {
  const response = await fetch(`${url}/gateway/v1/groups`, { headers: jsonHeaders });
  const groups = (await response.json()) as { id: string; name: string }[];
  const group = groups.find((candidate) => candidate.name === 'everyone');
  if (!group) throw new Error('the import made no group "everyone"');
  return group.id;
}
