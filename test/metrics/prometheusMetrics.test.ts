import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiMessage, waitForReadyModems, waitForState } from '../integration/support/apiReads.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { type ParsedFamily, parsePrometheusText } from '../support/prometheusParser.js';

/**
 * GET /metrics (issue 52, docs/metrics.md): off until the setting turns it on, behind its own
 * scope, and read by the Prometheus project's own parser after a modem behind a real serial
 * port sent, delivered and received.
 */
let harness: GatewayHarness;
let modemId = '';

beforeAll(async () => {
  harness = await startGatewayHarness({
    ptyModems: 1,
    ptyModemOptions: () => ({ statusReportDelayMs: 100 }),
  });
  await waitForReadyModems(harness.api, 1);
  modemId = (await harness.api.get<{ id: string }[]>('/devices')).body[0]?.id ?? '';
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

/** A token as docs/metrics.md has a scraper's made: for 30 days. */
async function tokenFor(scopes: string[]): Promise<string> {
  const issued = await harness.api.post<{ accessToken: string }>('/auth/token', { scopes, ttl: 2_592_000 });
  expect(issued.status).toBe(201);
  return issued.body.accessToken;
}

function scrape(token?: string) {
  return harness.api.request(
    'GET',
    '/metrics',
    token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  );
}

/** The value of the one sample named `name` whose labels include `labels`. */
function sample(
  families: readonly ParsedFamily[],
  name: string,
  labels: Record<string, string> = {},
): number {
  const found = families
    .flatMap((family) => family.samples)
    .filter(
      (entry) =>
        entry.name === name && Object.entries(labels).every(([key, value]) => entry.labels[key] === value),
    );
  expect(found, `${name} ${JSON.stringify(labels)}`).toHaveLength(1);
  return found[0]?.value ?? Number.NaN;
}

describe('GET /metrics', () => {
  it('is off until the setting turns it on, and then only for a token with metrics:read', async () => {
    const off = await scrape();
    expect(off.status).toBe(404);
    expect(off.body).toMatchObject({ field: 'metrics.enabled' });
    expect((await harness.api.patch('/settings', { metrics: { enabled: true } })).status).toBe(200);

    const anonymous = await fetch(`${harness.url}/metrics`);
    expect(anonymous.status).toBe(401);
    expect((await scrape(await tokenFor(['messages:send']))).status).toBe(403);
    const scraped = await scrape(await tokenFor(['metrics:read']));
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts sends, parts, reports and arrivals by modem, and shows the queue, modem, plan and process', async () => {
    await harness.api.patch('/settings', { metrics: { enabled: true } });
    expect(
      (await harness.api.request('PUT', `/gateway/v1/plans/${modemId}/1`, { json: { perDay: 100 } })).status,
    ).toBe(200);
    const short = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: 'Counted once' },
      phoneNumbers: ['+15551230101'],
    });
    const long = await harness.api.post<ApiMessage>('/messages', {
      textMessage: { text: 'Two parts. '.repeat(16) },
      phoneNumbers: ['+15551230102'],
    });
    for (const sent of [short, long])
      await waitForState(harness.api, `/messages/${sent.body.id}`, 'Delivered');
    harness.ptyModem(0).injectIncoming({ sender: '+15551230103', text: 'An answer' });
    const token = await tokenFor(['metrics:read']);
    let families: ParsedFamily[] = [];
    await expect
      .poll(
        async () => {
          families = parsePrometheusText((await scrape(token)).text);
          return sample(families, 'sms_gateway_messages_received_total', { device: modemId });
        },
        { timeout: 15_000 },
      )
      .toBe(1);

    const device = { device: modemId };
    expect(sample(families, 'sms_gateway_recipients_total', { ...device, state: 'Sent' })).toBe(2);
    expect(sample(families, 'sms_gateway_recipients_total', { ...device, state: 'Delivered' })).toBe(2);
    expect(sample(families, 'sms_gateway_sms_parts_sent_total', device)).toBe(3);
    expect(sample(families, 'sms_gateway_send_latency_seconds_count')).toBe(2);
    expect(sample(families, 'sms_gateway_messages', { state: 'Delivered' })).toBe(2);
    expect(sample(families, 'sms_gateway_messages', { state: 'Pending' })).toBe(0);
    expect(sample(families, 'sms_gateway_queue_oldest_waiting_seconds')).toBe(0);
    expect(sample(families, 'sms_gateway_modem_ready', device)).toBe(1);
    expect(sample(families, 'sms_gateway_modem_registration', { ...device, registration: 'home' })).toBe(1);
    expect(sample(families, 'sms_gateway_modem_signal_dbm', device)).toBeLessThan(0);
    const plan = { ...device, sim: '1', cap: 'day' };
    expect([
      sample(families, 'sms_gateway_sim_plan_used', plan),
      sample(families, 'sms_gateway_sim_plan_limit', plan),
    ]).toEqual([2, 100]);
    expect(sample(families, 'sms_gateway_outbox_pending', { kind: 'webhook' })).toBe(0);
    expect(sample(families, 'sms_gateway_sessions', { way: 'smpp' })).toBe(0);
    expect(sample(families, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(families.map((family) => family.name)).toContain('nodejs_eventloop_lag_seconds');
    expect(families.find((family) => family.name === 'sms_gateway_send_latency_seconds')?.type).toBe(
      'histogram',
    );
  });
});
