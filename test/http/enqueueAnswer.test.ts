import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultOptions } from '../../server/config/options.js';
import { createGateway, type Gateway } from '../../server/index.js';
import { ownerSessionToken } from '../support/ownerSession.js';
import { pollUntil } from '../support/pollUntil.js';

/**
 * Issue 35 item 5: the 202 of POST /messages is the message as GET /messages/{id} shows it, and
 * names only a device GET /devices lists. Upstream's Local server answers the 202 and every
 * message state with the one device its GET /device lists (`settings.deviceId`,
 * capcom6/android-sms-gateway `modules/localserver/routes/MessagesRoutes.kt`, DeviceRoutes.kt).
 */
interface MessageState {
  id: string;
  deviceId?: string;
  simulated?: boolean;
  state: string;
}

const running: Gateway[] = [];
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function startWithSimulators(count: number) {
  const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-enqueue-'));
  directories.push(dataDir);
  const gateway = createGateway(
    {
      ...defaultOptions(),
      listen: { host: '127.0.0.1', port: 0 },
      dataDir,
      probeSerialPorts: false,
      simulatedModems: count,
    },
    { logSinks: [] },
  );
  running.push(gateway);
  const { url } = await gateway.start();
  const authorization = `Bearer ${await ownerSessionToken(gateway)}`;
  const call = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const listedIds = async () =>
    (await call<{ id: string; modem: { status: string } }[]>('GET', '/devices')).body.map(
      (device) => device.id,
    );
  await pollUntil(async () => {
    const devices = (await call<{ modem: { status: string } }[]>('GET', '/devices')).body;
    return devices.length === count && devices.every((device) => device.modem.status === 'ready');
  });
  const send = (text: string) =>
    call<MessageState>('POST', '/messages', { textMessage: { text }, phoneNumbers: ['+15551230050'] });
  const read = async (id: string) => (await call<MessageState>('GET', `/messages/${id}`)).body;
  return { gateway, send, read, listedIds };
}

describe('the 202 of POST /messages', () => {
  it('names the modem that took the message, as GET /messages/{id} does, simulated included', async () => {
    const { send, read, listedIds } = await startWithSimulators(1);
    const accepted = await send('Taken at once');
    expect(accepted.status).toBe(202);
    expect(await listedIds()).toContain(accepted.body.deviceId);
    expect(accepted.body.simulated).toBe(true);
    const later = await read(accepted.body.id);
    expect(accepted.body.deviceId).toBe(later.deviceId);
  });

  it('names the only device there is for a message that waits, and GET agrees', async () => {
    const { gateway, send, read, listedIds } = await startWithSimulators(1);
    gateway.setSendingPaused(true);
    const accepted = await send('Waits while paused');
    expect(accepted.body.state).toBe('Pending');
    expect(await listedIds()).toEqual([accepted.body.deviceId]);
    expect(await read(accepted.body.id)).toEqual(accepted.body);
  });

  it('names no device for a waiting message while several could take it', async () => {
    const { gateway, send, read } = await startWithSimulators(2);
    gateway.setSendingPaused(true);
    const accepted = await send('Any of two');
    expect(accepted.body.state).toBe('Pending');
    expect(accepted.body).not.toHaveProperty('deviceId');
    expect(await read(accepted.body.id)).toEqual(accepted.body);
  });
});
