import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { waitForReadyModems } from './support/apiReads.js';

/**
 * Issue 39, routing: with a rule for +49 through one modem and a rule for every other number
 * through the other, two simulated modems on ptys (real serialport) carry exactly those.
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

describe('routing rules', () => {
  it('sends +49… through one modem and everything else through the other, and Try says why', async () => {
    const devices = (await harness.api.get<{ id: string }[]>('/devices')).body
      .map((device) => device.id)
      .sort();
    const [germany, elsewhere] = devices as [string, string];
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
    const carriedBy = await vi.waitFor(
      async () => {
        const states = await Promise.all(ids.map((id) => harness.api.get<MessageState>(`/messages/${id}`)));
        const done = states.map((state) => state.body).filter((state) => state.state === 'Sent');
        if (done.length !== ids.length) throw new Error(`${done.length} of ${ids.length} sent`);
        return done.map((state) => state.deviceId);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(carriedBy).toEqual([germany, germany, germany, germany, elsewhere, elsewhere]);
  });
});
