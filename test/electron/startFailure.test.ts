import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyStartFailure, findRunningGateway } from '../../electron/startFailure.js';
import { parseCommandLine } from '../../server/config/commandLine.js';
import { defaultOptions, type GatewayOptions } from '../../server/config/options.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';
import { createGateway, type Gateway } from '../../server/index.js';

const running: Gateway[] = [];
const directories: string[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'smsgw-start-'));
  directories.push(dir);
  return dir;
}

async function startGateway(overrides: Partial<GatewayOptions>) {
  const gateway = createGateway(
    {
      ...defaultOptions(),
      listen: { host: '127.0.0.1', port: 0 },
      probeSerialPorts: false,
      simulatedModems: 1,
      dataDir: await dataDir(),
      ...overrides,
    },
    { logSinks: [] },
  );
  running.push(gateway);
  return gateway.start();
}

async function failureOf(options: Partial<GatewayOptions>) {
  const listen = options.listen ?? { host: '127.0.0.1', port: 0 };
  const error = await startGateway(options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return classifyStartFailure(error, listen);
}

describe('why the core could not start', () => {
  it('names a port another gateway holds, and finds that gateway to open', async () => {
    const first = await startGateway({});
    const port = Number(new URL(first.url).port);
    const failure = await failureOf({ listen: { host: '127.0.0.1', port } });
    expect(failure).toMatchObject({ kind: 'port-in-use', port });
    expect(await findRunningGateway(first.url)).toBe(first.url);
  });

  it('does not take a foreign program on the port for a gateway', async () => {
    const foreign = createServer((_request, response) => response.end('{"status":"ok"}'));
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    const { port } = foreign.address() as AddressInfo;
    try {
      expect(await failureOf({ listen: { host: '127.0.0.1', port } })).toMatchObject({ kind: 'port-in-use' });
      expect(await findRunningGateway(`http://127.0.0.1:${port}`)).toBeUndefined();
    } finally {
      foreign.close();
    }
  });

  it('finds nothing where nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await findRunningGateway(`http://127.0.0.1:${port}`)).toBeUndefined();
  });

  it('names a data directory another gateway holds', async () => {
    const shared = await dataDir();
    await startGateway({ dataDir: shared });
    expect(await failureOf({ dataDir: shared })).toMatchObject({ kind: 'data-dir-locked' });
  });

  it('names a refused port and a bad option', () => {
    const forbidden = new GatewayError(ErrorCode.PortForbidden, 'the system does not allow port 50000');
    expect(classifyStartFailure(forbidden, { port: 50_000 })).toMatchObject({
      kind: 'port-forbidden',
      port: 50_000,
    });
    let badOption: unknown;
    try {
      parseCommandLine(['--listen', 'nowhere'], {});
    } catch (error) {
      badOption = error;
    }
    expect(classifyStartFailure(badOption, { port: 8080 })).toMatchObject({ kind: 'bad-option' });
    expect(classifyStartFailure(new Error('disk full'), { port: 8080 })).toEqual({
      kind: 'other',
      message: 'disk full',
    });
  });
});
