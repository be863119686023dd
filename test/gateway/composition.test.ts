import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { hostname, networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { defaultOptions, type GatewayOptions } from '../../server/config/options.js';
import type { SerialAccess } from '../../server/devices/pool/serialModemSource.js';
import { SimulatedModem } from '../../server/devices/simulator/simulatedModem.js';
import { createMemoryLink, MemoryEndpoint } from '../../server/devices/transport/memoryTransport.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { createGateway, type Gateway } from '../../server/index.js';
import type { LogRecord } from '../../server/logging/logger.js';
import { silentLogger } from '../../server/logging/logger.js';

/** A PC with no serial modem at all. */
const noSerialPorts: SerialAccess = {
  listPorts: async () => [],
  createTransport: () => createMemoryLink('none').host,
  probe: async () => false,
};

const running: Gateway[] = [];
const directories: string[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function start(
  overrides: Partial<GatewayOptions> = {},
  logs: LogRecord[] = [],
  serial: SerialAccess = noSerialPorts,
) {
  const dataDir = overrides.dataDir ?? (await mkdtemp(join(tmpdir(), 'smsgw-root-')));
  if (!overrides.dataDir) directories.push(dataDir);
  const gateway = createGateway(
    { ...defaultOptions(), listen: { host: '127.0.0.1', port: 0 }, dataDir, ...overrides },
    { serial, logSinks: [(record) => logs.push(record)] },
  );
  running.push(gateway);
  const started = await gateway.start();
  return { gateway, started, dataDir };
}

/** Started, and the simulated modem the empty machine falls back to is there. */
async function startWithFallback(overrides: Partial<GatewayOptions> = {}) {
  const gateway = await start(overrides);
  await vi.waitFor(() => expect(gateway.gateway.simulatedModems).toHaveLength(1), { timeout: 10_000 });
  return gateway;
}

function api(url: string, auth: string) {
  return async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${url}${path}`, {
      ...init,
      headers: { authorization: auth, 'content-type': 'application/json', ...init.headers },
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

describe('the composition root', () => {
  it('answers a host before start with InvalidState, zero attention and sending not paused', async () => {
    const gateway = createGateway({ ...defaultOptions(), dataDir: join(tmpdir(), 'smsgw-never-started') });
    await expect(gateway.windowSessionToken()).rejects.toMatchObject({ code: ErrorCode.InvalidState });
    await expect(gateway.healthReport()).rejects.toMatchObject({ code: ErrorCode.InvalidState });
    expect(gateway.attention()).toEqual({ webhookFailuresLastHour: 0, overdueReports: 0 });
    expect(gateway.sendingPaused).toBe(false);
    expect(() => gateway.recheckModems()).not.toThrow();
  });

  it('starts a simulated modem when no real modem answers, and says so loudly', async () => {
    const logs: LogRecord[] = [];
    const { gateway } = await start({}, logs);
    await vi.waitFor(() => expect(gateway.simulatedModems).toHaveLength(1), { timeout: 10_000 });
    expect(logs.some((log) => log.priority === 'WARN' && log.message.includes('SIMULATED modem'))).toBe(true);
  });

  it('stops the fallback simulated modem once a slow real modem answers a later probe', async () => {
    const link = createMemoryLink('/dev/ttyUSB2');
    const real = new SimulatedModem(link.device, { clock: systemClock, logger: silentLogger });
    await real.start();
    let probes = 0;
    const slowModem: SerialAccess = {
      listPorts: async () => [{ path: '/dev/ttyUSB2' }],
      createTransport: () => link.host,
      // Still booting at the first probe (Quectel EC2x, SIMCom SIM7600), answering at the second.
      probe: async () => ++probes >= 2,
    };
    const logs: LogRecord[] = [];
    const { gateway } = await start({}, logs, slowModem);
    await vi.waitFor(() => expect(gateway.simulatedModems).toHaveLength(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(gateway.simulatedModems).toHaveLength(0), { timeout: 15_000 });
    expect(probes).toBe(2);
    expect(logs.some((log) => log.message.includes('simulated modem started in its place is stopped'))).toBe(
      true,
    );
    await real.stop();
  });

  it('listens before a serial port that never answers has been probed', async () => {
    let probes = 0;
    const hangingPort: SerialAccess = {
      listPorts: async () => [{ path: '/dev/rfcomm0' }],
      createTransport: () => createMemoryLink('rfcomm').host,
      // A Bluetooth port whose probe never ends.
      probe: () => {
        probes++;
        return new Promise<boolean>(() => undefined);
      },
    };
    const { gateway, started } = await start(
      { username: 'office', password: 'password123' },
      [],
      hangingPort,
    );
    const call = api(started.url, `Basic ${Buffer.from('office:password123').toString('base64')}`);
    expect((await call('/devices')).status).toBe(200);
    expect(probes).toBe(1);
    expect(gateway.simulatedModems).toHaveLength(0);
  });

  it('listens before a configured modem has come up, and takes it once its port opens', async () => {
    // A port whose open hangs until the test lets it (a USB modem still enumerating).
    let letOpen = () => {};
    const openAllowed = new Promise<void>((resolve) => {
      letOpen = resolve;
    });
    class SlowOpeningPort extends MemoryEndpoint {
      override async open(): Promise<void> {
        await openAllowed;
        await super.open();
      }
    }
    const host = new SlowOpeningPort('/dev/ttyUSB0');
    const device = new MemoryEndpoint('/dev/ttyUSB0 (device side)');
    host.connect(device);
    device.connect(host);
    const modem = new SimulatedModem(device, { clock: systemClock, logger: silentLogger });
    await modem.start();
    const onePort: SerialAccess = {
      listPorts: async () => [{ path: '/dev/ttyUSB0' }],
      createTransport: () => host,
      probe: async () => false,
    };
    // Were the start waiting on the modem, it would never end: the port opens only below.
    const { started } = await start(
      { username: 'office', password: 'password123', modems: [{ path: '/dev/ttyUSB0', baudRate: 115_200 }] },
      [],
      onePort,
    );
    const call = api(started.url, `Basic ${Buffer.from('office:password123').toString('base64')}`);
    expect((await call('/devices')).status).toBe(200);
    letOpen();
    await vi.waitFor(
      async () =>
        expect((await call('/devices')).body).toEqual([
          expect.objectContaining({ modem: expect.objectContaining({ status: 'ready' }) }),
        ]),
      { timeout: 20_000 },
    );
    await modem.stop();
  });

  it('generates a Basic password on first run, shows it once, and accepts it after a restart', async () => {
    const first = await start();
    expect(first.started.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const auth = `Basic ${Buffer.from(`${first.started.username}:${first.started.generatedPassword}`).toString('base64')}`;
    await first.gateway.stop();

    const second = await start({ dataDir: first.dataDir });
    expect(second.started.generatedPassword).toBeUndefined();
    const response = await api(second.started.url, auth)('/devices');
    expect(response.status).toBe(200);
  });

  it('serves the gateway extensions: status, daily stats, AT log, pause and resume', async () => {
    const { started } = await startWithFallback({ username: 'office', password: 'password123' });
    const call = api(started.url, `Basic ${Buffer.from('office:password123').toString('base64')}`);

    const paused = await call('/gateway/v1/sending', {
      method: 'POST',
      body: JSON.stringify({ paused: true }),
    });
    expect(paused.body).toMatchObject({ sendingPaused: true, simulated: true });
    const queued = await call('/messages', {
      method: 'POST',
      body: JSON.stringify({
        textMessage: { text: 'held' },
        phoneNumbers: ['+15551234567'],
        withDeliveryReport: false,
      }),
    });
    expect(queued.status).toBe(202);
    await vi.waitFor(async () =>
      expect((await call('/gateway/v1/status')).body.scheduler.holding).toMatchObject({ reason: 'paused' }),
    );
    expect((await call(`/messages/${queued.body.id}`)).body.state).toBe('Pending');

    await call('/gateway/v1/sending', { method: 'POST', body: JSON.stringify({ paused: false }) });
    await vi.waitFor(async () => expect((await call(`/messages/${queued.body.id}`)).body.state).toBe('Sent'));

    const stats = await call('/gateway/v1/stats/daily?days=1');
    expect(stats.body).toEqual([expect.objectContaining({ sent: 1, failed: 0 })]);

    const [device] = (await call('/devices')).body;
    const atLog = await call(`/gateway/v1/devices/${device.id}/at-log?limit=500`);
    const lines = atLog.body.map(
      (line: { direction: string; line: string }) => `${line.direction} ${line.line}`,
    );
    expect(lines).toContain('out AT+CMGF=0');
    expect(lines.some((line: string) => line.startsWith('in +CMGS: '))).toBe(true);

    expect((await call('/gateway/v1/devices/nope/at-log')).status).toBe(404);
    expect((await call('/gateway/v1/stats/daily?days=0')).status).toBe(400);
  });

  it('refuses the extensions without credentials', async () => {
    const { started } = await start({ username: 'office', password: 'password123' });
    const response = await fetch(`${started.url}/gateway/v1/status`);
    expect(response.status).toBe(401);
  });

  it('queues a test event for a webhook and lists its delivery attempts', async () => {
    const { started } = await start({ username: 'office', password: 'password123' });
    const call = api(started.url, `Basic ${Buffer.from('office:password123').toString('base64')}`);
    await call('/webhooks', {
      method: 'POST',
      body: JSON.stringify({ id: 'crm', url: 'http://127.0.0.1:9/hook', event: 'sms:received' }),
    });
    const test = await call('/gateway/v1/webhooks/crm/test', { method: 'POST' });
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({ webhookId: 'crm', event: 'sms:received', state: 'pending' });
    await vi.waitFor(async () => {
      const [delivery] = (await call('/gateway/v1/webhooks/deliveries?webhookId=crm')).body;
      expect(delivery.attemptCount).toBe(1);
      expect(delivery.lastError).toBeTruthy();
    });
    expect((await call('/gateway/v1/webhooks/missing/test', { method: 'POST' })).status).toBe(404);
  });
});

describe('the Host check when listening on every interface (security review 9)', () => {
  /** A request to the gateway's loopback port naming `host`. */
  const status = (port: number, host: string) =>
    new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(
        { host: '127.0.0.1', port, path: '/health', headers: { Host: host } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });

  it('refuses Host: 0.0.0.0 and accepts the machine name and its addresses', async () => {
    const { started } = await start({ listen: { host: '0.0.0.0', port: 0 } });
    const port = Number(new URL(started.url).port);
    expect(await status(port, `0.0.0.0:${port}`)).toBe(403);
    expect(await status(port, '0.0.0.0')).toBe(403);
    const lanAddress = Object.values(networkInterfaces())
      .flat()
      .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
    for (const name of [hostname(), 'localhost', '127.0.0.1', ...(lanAddress ? [lanAddress] : [])]) {
      expect({ name, status: await status(port, `${name}:${port}`) }).not.toEqual({ name, status: 403 });
    }
  });
});
