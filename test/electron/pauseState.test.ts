import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultOptions } from '../../server/config/options.js';
import { createGateway, type Gateway } from '../../server/index.js';
import { ownerSessionToken } from '../support/ownerSession.js';

const running: Gateway[] = [];
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function gatewayIn(dataDir: string): Gateway {
  const gateway = createGateway(
    {
      ...defaultOptions(),
      listen: { host: '127.0.0.1', port: 0 },
      dataDir,
      probeSerialPorts: false,
      simulatedModems: 1,
    },
    { logSinks: [] },
  );
  running.push(gateway);
  return gateway;
}

async function newDataDir(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-pause-'));
  directories.push(dataDir);
  return dataDir;
}

async function sendingPausedIn(url: string, gateway: Gateway): Promise<boolean> {
  const response = await fetch(`${url}/gateway/v1/status`, {
    headers: { authorization: `Bearer ${await ownerSessionToken(gateway)}` },
  });
  return ((await response.json()) as { sendingPaused: boolean }).sendingPaused;
}

describe('the pause state the desktop tray shows', () => {
  it('is announced by the core whoever pauses: the UI through the API, or the tray', async () => {
    const gateway = gatewayIn(await newDataDir());
    const started = await gateway.start();
    const announced: boolean[] = [];
    gateway.events.on('sending:paused', ({ paused }) => announced.push(paused));

    // The UI's pause button.
    const response = await fetch(`${started.url}/gateway/v1/sending`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await ownerSessionToken(gateway)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ paused: true }),
    });
    expect(response.status).toBe(200);
    // The tray's item (coreProcess.ts hands it to the same method).
    gateway.setSendingPaused(false);
    expect(announced).toEqual([true, false]);
  });

  it('stays after a restart until a person lifts it, and the restarted core says so', async () => {
    const dataDir = await newDataDir();
    const first = gatewayIn(dataDir);
    await first.start();
    first.setSendingPaused(true);
    await first.stop();

    const second = gatewayIn(dataDir);
    const { url } = await second.start();
    expect(second.sendingPaused).toBe(true);
    await expect(sendingPausedIn(url, second)).resolves.toBe(true);
    second.setSendingPaused(false);
    await second.stop();

    const third = gatewayIn(dataDir);
    await third.start();
    expect(third.sendingPaused).toBe(false);
  });
});
