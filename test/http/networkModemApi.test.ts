import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import type { DeviceView } from '../../server/contract/schemas/deviceViewSchema.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import { silentLogger } from '../../server/logging/logger.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { pollUntil } from '../support/pollUntil.js';
import { type SerialServer, startSerialServer } from '../support/serialServer.js';

/**
 * POST /gateway/v1/modems with `tcp://host:port`: the Modems screen's way to a modem behind a
 * serial-over-IP server (here a loopback server bridged to a simulated modem's pty).
 */
let pty: PtyModem;
let serialServer: SerialServer;
let gateway: GatewayHarness;

beforeAll(async () => {
  pty = await startPtyModem({ clock: systemClock, logger: silentLogger });
  serialServer = await startSerialServer(pty);
  gateway = await startGatewayHarness({ options: { simulatorFallback: false }, allowPrivateTargets: true });
});

afterAll(async () => {
  await gateway.close();
  await serialServer.stop();
  await pty.close();
});

async function devices(): Promise<DeviceView[]> {
  return (await gateway.api.get<DeviceView[]>('/devices')).body;
}

async function readyBehindTheServer(): Promise<DeviceView | undefined> {
  return (await devices()).find(
    (device) => device.modem.port === serialServer.address && device.modem.status === 'ready',
  );
}

describe('a modem behind a serial server added with POST /gateway/v1/modems', () => {
  it('refuses a malformed tcp:// address with 400 naming path, and keeps no device for it', async () => {
    const before = await devices();
    for (const path of [
      'tcp://',
      'tcp://127.0.0.1',
      'tcp://127.0.0.1:0',
      'tcp://127.0.0.1:65536',
      'tcp://127.0.0.1:4001/ttyS0',
      'tcp://admin@127.0.0.1:4001',
      'tcp://modem_1.lan:4001',
      'tcp://[1:::2]:4001',
      'tcp://127.0.0.1:4001 --modem /etc/shadow',
    ]) {
      const response = await gateway.api.post<{ message: string }>('/gateway/v1/modems', { path });
      expect(response.status, path).toBe(400);
      expect(response.body.message, path).toMatch(/^path: must be tcp:\/\/<host>:<port>/);
    }
    expect(await devices()).toEqual(before);
  });

  it('still refuses a path that is no serial port with the security review’s one error', async () => {
    const response = await gateway.api.post<{ message: string }>('/gateway/v1/modems', {
      path: '/etc/passwd',
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^path: not a serial port of this computer/);
  });

  it('accepts the address, brings the modem up through the server and sends through it', async () => {
    const response = await gateway.api.post<DeviceView>('/gateway/v1/modems', { path: serialServer.address });
    expect(response.status).toBe(201);
    expect(response.body.modem.port).toBe(serialServer.address);
    await pollUntil(async () => (await readyBehindTheServer()) !== undefined, { limitMs: 15_000 });

    const sent = await gateway.api.post<{ id: string }>('/messages', {
      phoneNumbers: ['+15551234567'],
      textMessage: { text: 'through the serial server' },
    });
    expect(sent.status).toBe(202);
    await pollUntil(() => pty.modem.accepted.length === 1, { limitMs: 15_000 });
    expect(pty.modem.accepted[0]?.decoded.text).toBe('through the serial server');
    // It answered like a modem, so its AT traffic is shown.
    const device = await readyBehindTheServer();
    const log = await gateway.api.get<{ line: string }[]>(`/gateway/v1/devices/${device?.id ?? ''}/at-log`);
    expect(log.body.map((line) => line.line)).toContain('OK');
  });

  it('opens the kept address again after a restart', async () => {
    const added = await readyBehindTheServer();
    await gateway.restart();

    await pollUntil(async () => (await readyBehindTheServer()) !== undefined, { limitMs: 15_000 });
    expect((await readyBehindTheServer())?.id).toBe(added?.id);
    expect((await devices()).filter((device) => device.modem.port === serialServer.address)).toHaveLength(1);
  });

  it('forgets the address with the device, so a restart does not open it again', async () => {
    const added = await readyBehindTheServer();
    const forgotten = await gateway.api.request('DELETE', `/devices/${added?.id ?? ''}`);
    expect(forgotten.status).toBe(204);
    await pollUntil(() => serialServer.clients.size === 0, { limitMs: 10_000 });

    await gateway.restart();

    expect(await devices()).toEqual([]);
    expect(serialServer.clients.size).toBe(0);
  });
});
