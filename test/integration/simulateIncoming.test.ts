import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';

interface Device {
  id: string;
  name: string;
  modem: { port: string; simulated: boolean; status: string };
}

/**
 * POST /gateway/v1/devices/{id}/simulate-incoming and …/simulate-failure, and PATCH
 * /gateway/v1/devices/{id}: a built-in simulated modem receives the SMS like any other, and
 * refuses a send as told; a real modem (a pty behind the real serialport binding) is refused
 * both; a modem's name is kept by its id.
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

  it('fails the next send to one number with the chosen +CMS error, then sends again', async () => {
    const failing = '+15550003333';
    const set = await harness.api.post(`/gateway/v1/devices/${simulated.id}/simulate-failure`, {
      cmsCode: 38,
      phoneNumber: failing,
    });
    expect(set.status).toBe(202);
    const send = async (phoneNumber: string) =>
      (
        await harness.api.post<{ id: string }>('/messages', {
          textMessage: { text: 'What does a failure look like?' },
          phoneNumbers: [phoneNumber],
          deviceId: simulated.id,
        })
      ).body.id;
    const stateOf = async (id: string) =>
      (await harness.api.get<{ state: string; recipients: { error?: string }[] }>(`/messages/${id}`)).body;
    // Another number goes through; the chosen one fails once with the chosen code.
    const other = await send('+15550004444');
    const refused = await send(failing);
    await pollUntil(async () => (await stateOf(refused)).state === 'Failed', {
      limitMs: 15_000,
      what: 'the send to the failing number to fail',
      intervalMs: 200,
    });
    expect((await stateOf(refused)).recipients[0]?.error).toContain('+CMS ERROR 38');
    await pollUntil(
      async () => (await stateOf(other)).state !== 'Pending' && (await stateOf(other)).state !== 'Processed',
      {
        limitMs: 15_000,
        what: 'the other send to end',
        intervalMs: 200,
      },
    );
    expect((await stateOf(other)).state).not.toBe('Failed');
    const again = await send(failing);
    await pollUntil(async () => ['Sent', 'Delivered'].includes((await stateOf(again)).state), {
      limitMs: 15_000,
      what: 'the next send to that number to go',
      intervalMs: 200,
    });
  });

  it('refuses a simulated failure on a real modem (409) and an unknown code (400 naming cmsCode)', async () => {
    const refused = await harness.api.post<{ message: string }>(
      `/gateway/v1/devices/${real.id}/simulate-failure`,
      { cmsCode: 38 },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('real modem');
    const malformed = await harness.api.post(`/gateway/v1/devices/${simulated.id}/simulate-failure`, {
      cmsCode: 9000,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('cmsCode');
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
