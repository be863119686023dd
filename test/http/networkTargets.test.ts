import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceView } from '../../server/contract/schemas/deviceViewSchema.js';
import { AndroidPhoneDouble } from '../support/androidPhone.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { HiLinkStickDouble } from '../support/hilinkStick.js';
import { pollUntil } from '../support/pollUntil.js';

/**
 * Second security review (issue 36), item 8: `POST /gateway/v1/modems {"path": "tcp://…"}`
 * connected anywhere and called again forever, and the far end's banner showed in the AT log
 * (`logs:read`); the HiLink and phone routes fetched any URL too. Targets on this computer or
 * a private network now need `network.allow_private_targets`; a network modem's AT log shows a
 * connection only once it answered `AT` with `OK`; and an address where nothing ever did is
 * given up after 5 connections.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A connection where no modem answers is over within a second, not after the real ~20 s. */
const quickGiveUp = {
  modemTiming: { syncAttempts: 1, syncTimeoutMs: 200, backoffInitialMs: 50, backoffMaxMs: 100 },
  options: {
    simulatorFallback: false,
    atSession: {
      resyncTimeoutMs: 100,
      resyncAttempts: 1,
      resyncQuietMs: 50,
      completeOnLineGraceMs: 50,
    },
  },
};

async function gateway(options: { allowPrivateTargets?: boolean } = {}): Promise<GatewayHarness> {
  const harness = await startGatewayHarness({ ...quickGiveUp, ...options });
  cleanups.push(() => harness.close());
  return harness;
}

/** A line service that is no modem: a banner on connect, an error to every line sent to it. */
async function startBannerService(): Promise<{ address: string; connections: () => number }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.write('SSH-2.0-OpenSSH_9.6 internal-banner\r\n');
    socket.on('data', () => socket.write('-ERR unknown command\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the service has no port');
  cleanups.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { address: `tcp://127.0.0.1:${address.port}`, connections: () => connections };
}

describe('targets on this computer or a private network (issue 36, item 8)', () => {
  it('are refused with 400 naming the field and the setting while network.allow_private_targets is off', async () => {
    const service = await startBannerService();
    const stick = new HiLinkStickDouble();
    const stickUrl = await stick.start();
    cleanups.push(() => stick.stop());
    const phone = new AndroidPhoneDouble();
    const phonePort = await phone.start();
    cleanups.push(() => phone.stop());
    const harness = await gateway();

    for (const [route, body, field] of [
      ['/gateway/v1/modems', { path: service.address }, 'path'],
      ['/gateway/v1/modems', { path: 'tcp://[::1]:4001' }, 'path'],
      ['/gateway/v1/modems', { path: 'tcp://localhost:4001' }, 'path'],
      ['/gateway/v1/modems', { path: 'tcp://169.254.169.254:80' }, 'path'],
      ['/gateway/v1/hilink', { url: stickUrl }, 'url'],
      [
        '/gateway/v1/phones',
        { url: `http://127.0.0.1:${phonePort}`, username: phone.username, password: phone.password },
        'url',
      ],
    ] as const) {
      const response = await harness.api.post<{ message: string }>(route, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toMatch(new RegExp(`^${field}: .*network\\.allow_private_targets`));
    }
    expect((await harness.api.get<DeviceView[]>('/devices')).body).toEqual([]);
    expect(service.connections()).toBe(0);
    expect(phone.requests).toEqual([]);
  });

  it('are taken once the setting is on', async () => {
    const service = await startBannerService();
    const harness = await gateway();
    const allowed = await harness.api.patch('/settings', { network: { allow_private_targets: true } });
    expect(allowed.status).toBe(200);
    expect((await harness.api.post('/gateway/v1/modems', { path: service.address })).status).toBe(201);
  });
});

describe('a network modem address where no modem answers (issue 36, item 8)', () => {
  it('shows nothing of the far end in the AT log, and is given up after 5 connections', async () => {
    const service = await startBannerService();
    const harness = await gateway({ allowPrivateTargets: true });
    const added = await harness.api.post<DeviceView>('/gateway/v1/modems', { path: service.address });
    expect(added.status).toBe(201);
    const device = async () =>
      (await harness.api.get<DeviceView[]>('/devices')).body.find(
        (candidate) => candidate.modem.port === service.address,
      );

    await pollUntil(() => service.connections() >= 2, { limitMs: 15_000, what: 'a second connection' });
    const log = await harness.api.get<{ line: string }[]>(`/gateway/v1/devices/${added.body.id}/at-log`);
    expect(log.status).toBe(200);
    expect(log.text).not.toContain('internal-banner');
    expect(log.text).not.toContain('ERR');

    await pollUntil(async () => (await device())?.modem.status === 'not-a-modem', {
      limitMs: 20_000,
      what: 'the address to be given up',
    });
    expect(service.connections()).toBe(5);
    expect((await device())?.modem.statusDetail).toMatch(/answered AT like a modem/);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(service.connections()).toBe(5);
    expect((await harness.api.get(`/gateway/v1/devices/${added.body.id}/at-log`)).text).not.toContain(
      'internal-banner',
    );

    // Added again, it is tried again.
    expect((await harness.api.post('/gateway/v1/modems', { path: service.address })).status).toBe(201);
    await pollUntil(() => service.connections() > 5, { what: 'a connection after adding it again' });
  }, 60_000);
});
