import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';

interface Device {
  id: string;
  name: string;
  modem: { port: string; simulated: boolean; status: string };
}

/**
 * POST /gateway/v1/devices/{id}/simulate-incoming and PATCH /gateway/v1/devices/{id}: a built-in
 * simulated modem receives the SMS like any other; a real modem (a pty behind the real
 * serialport binding) is refused; a modem's name is kept by its id.
 */
describe('simulated incoming SMS and modem names', () => {
  let harness: GatewayHarness;
  let simulated: Device;
  let real: Device;

  beforeAll(async () => {
    harness = await startGatewayHarness({ ptyModems: 1, simulatedModems: 1 });
    await pollUntil(
      async () => {
        const devices = (await harness.api.get<Device[]>('/devices')).body;
        return devices.length === 2 && devices.every((device) => device.modem.status === 'ready');
      },
      { limitMs: 30_000, what: 'both modems ready', intervalMs: 200 },
    );
    const devices = (await harness.api.get<Device[]>('/devices')).body;
    simulated = devices.find((device) => device.modem.simulated) as Device;
    real = devices.find((device) => !device.modem.simulated) as Device;
  }, 60_000);

  afterAll(async () => {
    await harness?.close();
  });

  it('delivers a simulated SMS to the Inbox of a simulated modem', async () => {
    const response = await harness.api.post(`/gateway/v1/devices/${simulated.id}/simulate-incoming`, {
      sender: '+15550002222',
      text: 'Trying the inbox',
    });
    expect(response.status).toBe(202);
    await pollUntil(
      async () => {
        const inbox = (await harness.api.get<{ sender: string; deviceId: string }[]>('/inbox')).body;
        return inbox.some((entry) => entry.sender === '+15550002222' && entry.deviceId === simulated.id);
      },
      { limitMs: 15_000, what: 'the simulated SMS in the inbox', intervalMs: 200 },
    );
  });

  it('refuses a real modem with 409 and a reason, and a malformed sender with 400 naming it', async () => {
    const refused = await harness.api.post<{ message: string }>(
      `/gateway/v1/devices/${real.id}/simulate-incoming`,
      { sender: '+15550002222', text: 'Fake' },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('real modem');
    const malformed = await harness.api.post<{ message: string }>(
      `/gateway/v1/devices/${simulated.id}/simulate-incoming`,
      { sender: 'nobody', text: 'Fake' },
    );
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('sender');
    const unknown = await harness.api.post('/gateway/v1/devices/0000000000000000/simulate-incoming', {
      sender: '+15550002222',
      text: 'Fake',
    });
    expect(unknown.status).toBe(404);
  });

  it('keeps a modem’s name under its id across a restart', async () => {
    const renamed = await harness.api.patch<Device>(`/gateway/v1/devices/${real.id}`, { name: 'Front desk' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Front desk');
    const empty = await harness.api.patch(`/gateway/v1/devices/${real.id}`, { name: '  ' });
    expect(empty.status).toBe(400);
    await harness.restart();
    const devices = (await harness.api.get<Device[]>('/devices')).body;
    expect(devices.find((device) => device.id === real.id)?.name).toBe('Front desk');
  }, 60_000);
});
