import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultOptions } from '../../server/config/options.js';
import { createGateway, type Gateway } from '../../server/index.js';

const running: Gateway[] = [];
const directories: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the pause state the desktop tray shows', () => {
  it('is announced by the core whoever pauses: the UI through the API, or the tray', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-pause-'));
    directories.push(dataDir);
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
    const started = await gateway.start();
    const announced: boolean[] = [];
    gateway.events.on('sending:paused', ({ paused }) => announced.push(paused));

    // The UI's pause button.
    const response = await fetch(`${started.url}/gateway/v1/sending`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await gateway.issueSessionToken()}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ paused: true }),
    });
    expect(response.status).toBe(200);
    // The tray's item (coreProcess.ts hands it to the same method).
    gateway.setSendingPaused(false);
    expect(announced).toEqual([true, false]);
  });
});
