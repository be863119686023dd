/**
 * Fleet mode, registration: the real gateway on loopback registers with the contract double of
 * the private server's device API (test/support/fleetServerDouble.ts — the Go server cannot be
 * built here) by each credential kind upstream's `POST /mobile/v1/device` accepts.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FleetServerDouble, startFleetServerDouble } from '../support/fleetServerDouble.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { fleetStatusOf, waitForFleetState } from './support/fleetReads.js';

let double: FleetServerDouble | undefined;
let harness: GatewayHarness | undefined;

afterEach(async () => {
  await harness?.close();
  await double?.close();
  harness = undefined;
  double = undefined;
});

function startGateway(options: Parameters<typeof startGatewayHarness>[0] = {}): Promise<GatewayHarness> {
  return startGatewayHarness({
    fleetPollIntervalMs: 300,
    ...options,
    options: { simulatorFallback: false, ...options.options },
  });
}

describe('fleet mode registration', () => {
  it('registers with the server key from the command line, shows the new user once, keeps the token private', async () => {
    double = await startFleetServerDouble();
    harness = await startGateway({
      options: { simulatorFallback: false, fleetServer: { url: double.baseUrl, token: double.serverKey } },
    });
    const status = await waitForFleetState(harness.api, 'connected');
    expect(double.devices).toHaveLength(1);
    const device = double.devices[0];
    expect(status).toMatchObject({ enabled: true, deviceId: device?.id, login: device?.userId });
    // Basic holds settings:write: the login shows, and that a password waits to be shown once.
    expect(status).toMatchObject({ createdUserPasswordWaiting: true });
    const created = await harness.api.post<{ password: string }>(
      '/gateway/v1/fleet/created-user-password',
      {},
    );
    expect(created.body.password).toMatch(/^[a-z0-9_-]+$/i);
    expect(device?.pushToken).toBeNull();
    expect(double.openStreams(device?.id ?? '')).toBe(1);

    // The device token lives in a 0600 file; GET /settings shows neither it nor the server key.
    const file = join(harness.dataDir, 'fleet-device.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain(device?.token);
    const settings = await harness.api.get<{ gateway: Record<string, unknown> }>('/settings');
    expect(settings.body.gateway).toEqual({ cloud_url: double.baseUrl, notification_channel: 'AUTO' });
    expect(settings.text).not.toContain(device?.token ?? '-');
    expect(settings.text).not.toContain(double.serverKey);

    // A restart keeps the registration (no new device) and never shows the password again.
    await harness.restart();
    const again = await waitForFleetState(harness.api, 'connected');
    expect(double.devices).toHaveLength(1);
    expect(again).not.toHaveProperty('createdUserPasswordWaiting');
  });

  it('registers for an existing user with Basic credentials given in Settings', async () => {
    double = await startFleetServerDouble();
    double.addUser('FLEET1', 'fleet-password-1');
    harness = await startGateway();
    expect((await fleetStatusOf(harness.api)).enabled).toBe(false);
    const patched = await harness.api.patch('/settings', {
      gateway: { cloud_url: double.baseUrl, private_token: 'Basic FLEET1:fleet-password-1' },
    });
    expect(patched.status).toBe(200);
    const status = await waitForFleetState(harness.api, 'connected');
    expect(double.devices.map((device) => device.userId)).toEqual(['FLEET1']);
    expect(status).toMatchObject({ login: 'FLEET1' });
    expect(status).not.toHaveProperty('createdUserPasswordWaiting');
  });

  it('registers with a one-time user code from GET /user/code', async () => {
    double = await startFleetServerDouble();
    double.addUser('FLEET2', 'fleet-password-2');
    const codeResponse = await fetch(`${double.baseUrl}/user/code`, {
      headers: { authorization: `Basic ${Buffer.from('FLEET2:fleet-password-2').toString('base64')}` },
    });
    const { code } = (await codeResponse.json()) as { code: string };
    harness = await startGateway();
    await harness.api.patch('/settings', {
      gateway: { cloud_url: double.baseUrl, private_token: `Code ${code}` },
    });
    await waitForFleetState(harness.api, 'connected');
    expect(double.devices.map((device) => device.userId)).toEqual(['FLEET2']);
  });

  it('stays rejected on a wrong server key until the token is changed, then registers', async () => {
    double = await startFleetServerDouble();
    harness = await startGateway();
    await harness.api.patch('/settings', {
      gateway: { cloud_url: double.baseUrl, private_token: 'wrong-key' },
    });
    const rejected = await waitForFleetState(harness.api, 'rejected');
    expect(rejected.enabled && rejected.lastError).toMatch(/401/);
    expect(double.devices).toHaveLength(0);
    const attempts = double.requests.get('POST /device');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(double.requests.get('POST /device')).toBe(attempts);

    await harness.api.patch('/settings', { gateway: { private_token: double.serverKey } });
    await waitForFleetState(harness.api, 'connected');
    expect(double.devices).toHaveLength(1);
  });

  it('refuses a plain-http server URL that is not loopback, naming the field', async () => {
    harness = await startGateway();
    const response = await harness.api.patch<{ message: string }>('/settings', {
      gateway: { cloud_url: 'http://sms.example.com/api/mobile/v1' },
    });
    expect(response.status).toBe(400);
    expect(response.text).toContain('gateway.cloud_url');
    const https = await harness.api.patch('/settings', {
      gateway: { cloud_url: 'https://sms.example.com/api/mobile/v1' },
    });
    expect(https.status).toBe(200);
  });
});
