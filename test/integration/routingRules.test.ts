import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { waitForReadyModems } from './support/apiReads.js';

/**
 * Issue 39, routing: with a rule for +49 (or for an operator's numbers) through one modem and a
 * rule for every other number through the other, two simulated modems on ptys (real serialport)
 * carry exactly those.
 */
let harness: GatewayHarness;

beforeAll(async () => {
  harness = await startGatewayHarness({ ptyModems: 2 });
  await waitForReadyModems(harness.api, 2);
}, 60_000);

afterAll(async () => {
  await harness?.close();
});

interface MessageState {
  id: string;
  deviceId?: string;
  state: string;
}

async function sendAndSee(numbers: readonly string[]): Promise<(string | undefined)[]> {
  const ids: string[] = [];
  for (const number of numbers) {
    const sent = await harness.api.post<MessageState>('/messages', {
      textMessage: { text: `to ${number}` },
      phoneNumbers: [number],
      withDeliveryReport: false,
    });
    expect(sent.status).toBe(202);
    ids.push(sent.body.id);
  }
  return vi.waitFor(
    async () => {
      const states = await Promise.all(ids.map((id) => harness.api.get<MessageState>(`/messages/${id}`)));
      const done = states.map((state) => state.body).filter((state) => state.state === 'Sent');
      if (done.length !== ids.length) throw new Error(`${done.length} of ${ids.length} sent`);
      return done.map((state) => state.deviceId);
    },
    { timeout: 30_000, interval: 100 },
  );
}

async function deviceIds(): Promise<[string, string]> {
  const devices = (await harness.api.get<{ id: string }[]>('/devices')).body
    .map((device) => device.id)
    .sort();
  return devices as [string, string];
}

describe('routing rules', () => {
  it('sends +49… through one modem and everything else through the other, and Try says why', async () => {
    const [germany, elsewhere] = await deviceIds();
    const stored = await harness.api.request('PUT', '/gateway/v1/routing', {
      json: {
        rules: [
          { prefix: '+49', deviceIds: [germany] },
          { prefix: '+', deviceIds: [elsewhere] },
        ],
      },
    });
    expect(stored.status).toBe(200);

    const tried = await harness.api.get<{ deviceIds: string[]; why: string }>(
      '/gateway/v1/routing/try?phoneNumber=%2B4915112345678',
    );
    expect(tried.body.deviceIds).toEqual([germany]);
    expect(tried.body.why).toContain('+49');

    // Most go to +49: spreading the load alone would give both modems some of them.
    const numbers = [
      '+4915112345678',
      '+4915112345679',
      '+4930123456',
      '+4930123457',
      '+15551230001',
      '+447700900123',
    ];
    expect(await sendAndSee(numbers)).toEqual([germany, germany, germany, germany, elsewhere, elsewhere]);
  });

  it("sends an operator's numbers through one modem and the others through the other", async () => {
    const [vodafone, others] = await deviceIds();
    const operators = await harness.api.get<{ operators: string[] }>(
      '/gateway/v1/routing/operators?country=DE',
    );
    expect(operators.status).toBe(200);
    expect(operators.body.operators).toContain('Vodafone');

    const unknownName = await harness.api.request('PUT', '/gateway/v1/routing', {
      json: { rules: [{ operator: 'Vodafone Germany', country: 'DE', deviceIds: [vodafone] }] },
    });
    expect(unknownName.status).toBe(400);
    expect(unknownName.body).toMatchObject({ field: 'rules[0].operator' });
    const noCountry = await harness.api.request('PUT', '/gateway/v1/routing', {
      json: { rules: [{ operator: 'Vodafone', deviceIds: [vodafone] }] },
    });
    expect(noCountry.status).toBe(400);
    expect(noCountry.body).toMatchObject({ field: 'rules[0].country' });

    const stored = await harness.api.request('PUT', '/gateway/v1/routing', {
      json: {
        rules: [
          { operator: 'Vodafone', country: 'DE', deviceIds: [vodafone] },
          { prefix: '+', deviceIds: [others] },
        ],
      },
    });
    expect(stored.status).toBe(200);
    const listed = await harness.api.get<{ rules: unknown[] }>('/gateway/v1/routing');
    expect(listed.body.rules).toMatchObject([
      { operator: 'Vodafone', country: 'DE', deviceIds: [vodafone], fallbackDeviceIds: [] },
      { prefix: '+', deviceIds: [others], fallbackDeviceIds: [] },
    ]);
    expect(listed.body.rules[0]).not.toHaveProperty('prefix');

    const tried = await harness.api.get<{ deviceIds?: string[]; operator: unknown; why: string }>(
      '/gateway/v1/routing/try?phoneNumber=%2B4917212345678',
    );
    expect(tried.body).toMatchObject({
      deviceIds: [vodafone],
      operator: { name: 'Vodafone', country: 'DE' },
      why: `rule Vodafone (DE): ${vodafone}`,
    });
    const landline = await harness.api.get<{ deviceIds?: string[]; operator: unknown }>(
      '/gateway/v1/routing/try?phoneNumber=%2B4930123456',
    );
    expect(landline.body).toMatchObject({
      deviceIds: [others],
      operator: { unknown: 'operator unknown for this number' },
    });

    // Vodafone (0172, 0162, 01520) and others: T-Mobile (0170), O2 (0176), a landline, a UK O2.
    const numbers = [
      '+4917212345678',
      '+4917012345678',
      '+4916212345678',
      '+4917612345678',
      '+4915201234567',
      '+4930123456',
      '+447712345678',
    ];
    expect(await sendAndSee(numbers)).toEqual([vodafone, others, vodafone, others, vodafone, others, others]);
  });
});
