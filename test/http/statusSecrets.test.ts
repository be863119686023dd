/**
 * Issue 36, review 2: GET /gateway/v1/status needs only `messages:list`, so it must not carry
 * what a wider scope guards — the fleet login and the password of the user the private server
 * created (they open that server's API for the whole fleet), or a webhook's URL (its path is
 * often the secret, e.g. a Home Assistant webhook id). The whole gateway runs on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type FleetServerDouble, startFleetServerDouble } from '../support/fleetServerDouble.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';

let double: FleetServerDouble | undefined;
let harness: GatewayHarness | undefined;

afterEach(async () => {
  await harness?.close();
  await double?.close();
  harness = undefined;
  double = undefined;
});

interface StatusBody {
  webhooks: { lastFailure?: Record<string, unknown> };
  fleet: Record<string, unknown>;
}

async function bearerWith(gateway: GatewayHarness, scopes: string[]): Promise<Record<string, string>> {
  const issued = await gateway.api.post<{ access_token: string }>('/auth/token', { scopes });
  expect(issued.status).toBe(201);
  return { Authorization: `Bearer ${issued.body.access_token}` };
}

describe('the gateway status shows a secret only to a scope that may write it (issue 36, review 2)', () => {
  it('names a failing webhook by its id, never by its URL', async () => {
    harness = await startGatewayHarness({
      webhookPoster: async () => {
        throw new Error('connect ECONNREFUSED 192.0.2.10:8123');
      },
    });
    const secretUrl = 'https://ha.example/api/webhook/secret-hook-id-1234';
    const created = await harness.api.post<{ id: string }>('/webhooks', {
      url: secretUrl,
      event: 'sms:received',
    });
    expect(created.status).toBe(201);
    expect((await harness.api.post(`/gateway/v1/webhooks/${created.body.id}/test`, {})).status).toBe(202);
    const reader = await bearerWith(harness, ['messages:list']);
    let status: StatusBody | undefined;
    await pollUntil(async () => {
      const response = await harness?.api.request<StatusBody>('GET', '/gateway/v1/status', {
        headers: reader,
      });
      status = response?.body;
      return status?.webhooks.lastFailure !== undefined;
    });
    expect(status?.webhooks.lastFailure).toMatchObject({ webhookId: created.body.id });
    expect(JSON.stringify(status)).not.toContain('secret-hook-id-1234');
    // The same token may not list the webhooks, which is where their URLs are.
    expect((await harness.api.request('GET', '/webhooks', { headers: reader })).status).toBe(403);
  });

  it('shows the fleet login to settings:write only, and the created password once', async () => {
    double = await startFleetServerDouble();
    harness = await startGatewayHarness({
      fleetPollIntervalMs: 300,
      options: { simulatorFallback: false, fleetServer: { url: double.baseUrl, token: double.serverKey } },
    });
    const gateway = harness;
    await pollUntil(async () => {
      const response = await gateway.api.get<StatusBody>('/gateway/v1/status');
      return response.body.fleet.state === 'connected';
    });
    const device = double.devices[0];
    const login = device?.userId ?? '';
    expect(login).not.toBe('');

    const reader = await bearerWith(gateway, ['messages:list']);
    const read = await gateway.api.request<StatusBody>('GET', '/gateway/v1/status', { headers: reader });
    expect(read.status).toBe(200);
    expect(read.body.fleet).toMatchObject({ enabled: true, state: 'connected' });
    expect(read.body.fleet.login).toBeUndefined();
    expect(read.body.fleet.createdUserPassword).toBeUndefined();
    expect(read.text).not.toContain(login);

    // Whoever may change the fleet settings sees the login, and that a password waits to be shown.
    const writer = await bearerWith(gateway, ['messages:list', 'settings:write']);
    const written = await gateway.api.request<StatusBody>('GET', '/gateway/v1/status', { headers: writer });
    expect(written.body.fleet).toMatchObject({ login, createdUserPasswordWaiting: true });
    expect(written.body.fleet.createdUserPassword).toBeUndefined();

    const reveal = (headers: Record<string, string>) =>
      gateway.api.request<{ login: string; password: string }>(
        'POST',
        '/gateway/v1/fleet/created-user-password',
        { headers },
      );
    expect((await reveal(reader)).status).toBe(403);
    const shown = await reveal(writer);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ login, password: expect.stringMatching(/^[a-z0-9_-]{6,}$/i) });
    // Once: the next reader, the window included, gets it no more.
    expect((await reveal(writer)).status).toBe(404);
    const after = await gateway.api.get<StatusBody>('/gateway/v1/status');
    expect(after.body.fleet.createdUserPasswordWaiting).toBeUndefined();
    expect(after.text).not.toContain(shown.body.password);
  });
});
