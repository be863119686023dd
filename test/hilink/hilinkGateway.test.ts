import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultOptions, type GatewayOptions } from '../../server/config/options.js';
import { createMemoryLink } from '../../server/devices/transport/memoryTransport.js';
import { createGateway, type GatewayDependencies } from '../../server/index.js';
import type { LogRecord } from '../../server/logging/logger.js';
import { HiLinkStickDouble } from '../support/hilinkStick.js';

/** The gateway with a HiLink stick (the contract double) and no serial modem at all. */
/** Room for a loaded shared machine: these wait on real HTTP round trips and timers. */
const patiently = { timeout: 15_000, interval: 50 };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const noSerialPorts: NonNullable<GatewayDependencies['serial']> = {
  listPorts: async () => [],
  createTransport: () => createMemoryLink('none').host,
  probe: async () => false,
};

async function gateway(overrides: Partial<GatewayOptions>, deps: GatewayDependencies = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-hilink-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const logs: LogRecord[] = [];
  const created = createGateway(
    {
      ...defaultOptions(),
      listen: { host: '127.0.0.1', port: 0 },
      dataDir,
      username: 'office',
      password: 'password123',
      ...overrides,
    },
    {
      serial: noSerialPorts,
      logSinks: [(record) => logs.push(record)],
      detectHiLink: () => undefined,
      ...deps,
    },
  );
  cleanups.push(() => created.stop());
  const started = await created.start();
  const auth = `Basic ${Buffer.from('office:password123').toString('base64')}`;
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${started.url}${path}`, {
      ...init,
      headers: { authorization: auth, 'content-type': 'application/json', ...init.headers },
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return { gateway: created, call, logs };
}

describe('a HiLink stick given with --hilink', () => {
  it('is a device that sends messages through the web API and shows what it cannot do', async () => {
    const stick = new HiLinkStickDouble();
    const url = await stick.start();
    cleanups.push(() => stick.stop());
    const { call, gateway: running } = await gateway({ hilinks: [url] });
    await vi.waitFor(async () => {
      const devices = (await call('/devices')).body;
      expect(devices[0]?.modem).toMatchObject({ kind: 'hilink', status: 'ready', model: 'E3372h-320' });
    }, patiently);
    expect(running.simulatedModems).toHaveLength(0);
    const devices = (await call('/devices')).body;
    expect(devices[0].modem.limitations.join(' ')).toMatch(/delivery reports/);
    const posted = await call('/messages', {
      method: 'POST',
      body: JSON.stringify({ textMessage: { text: 'via HiLink' }, phoneNumbers: ['+15551234567'] }),
    });
    expect(posted.status).toBe(202);
    await vi.waitFor(
      async () => expect((await call(`/messages/${posted.body.id}`)).body.state).toBe('Sent'),
      patiently,
    );
    expect(stick.sent).toEqual([{ phones: ['+15551234567'], content: 'via HiLink', reserved: '1' }]);
  });
});

describe('a HiLink adapter the gateway was not told to use', () => {
  it('is named in the log and the status instead of a silent fallback to the simulator', async () => {
    const { call, logs } = await gateway(
      {},
      {
        detectHiLink: () => ({ interfaceName: 'eth1', address: '192.168.8.100', url: 'http://192.168.8.1' }),
      },
    );
    await vi.waitFor(
      () =>
        expect(
          logs.some(
            (log) =>
              log.message.includes('SIMULATED modem') && log.message.includes('--hilink http://192.168.8.1'),
          ),
        ).toBe(true),
      patiently,
    );
    expect((await call('/gateway/v1/status')).body.hilinkAdapter).toEqual({
      interfaceName: 'eth1',
      url: 'http://192.168.8.1',
    });
  });

  it('can be added from the API (the Modems screen) by its URL', async () => {
    const stick = new HiLinkStickDouble();
    const url = await stick.start();
    cleanups.push(() => stick.stop());
    const { call } = await gateway({ simulatedModems: 1 });
    // The stick double listens on loopback, where devices need network.allow_private_targets.
    await call('/settings', {
      method: 'PATCH',
      body: JSON.stringify({ network: { allow_private_targets: true } }),
    });
    const added = await call('/gateway/v1/hilink', { method: 'POST', body: JSON.stringify({ url }) });
    expect(added.status).toBe(201);
    expect(added.body.modem).toMatchObject({ kind: 'hilink', port: url });
    expect((await call('/gateway/v1/hilink', { method: 'POST', body: '{"url":"ftp://x"}' })).status).toBe(
      400,
    );
  });

  it('is added by the URL the gateway found it at without network.allow_private_targets, unlike other private addresses (issue 36)', async () => {
    const stick = new HiLinkStickDouble();
    const url = await stick.start();
    cleanups.push(() => stick.stop());
    const { call } = await gateway(
      { simulatedModems: 1 },
      { detectHiLink: () => ({ interfaceName: 'eth1', address: '127.0.0.1', url }) },
    );
    const elsewhere = await call('/gateway/v1/hilink', {
      method: 'POST',
      body: JSON.stringify({ url: 'http://192.168.8.1' }),
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message).toMatch(/^url: .*network\.allow_private_targets/);
    const found = await call('/gateway/v1/hilink', { method: 'POST', body: JSON.stringify({ url }) });
    expect(found.status).toBe(201);
  });
});
