import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { coreUrlOf, runningServiceAt } from '../../electron/attachedCore.js';
import { withPreferences } from '../../electron/coreArguments.js';
import { GatewayTray } from '../../electron/tray.js';
import { FakeTray } from './support/electronDouble.js';

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A server on loopback answering GET /health with `body`. */
async function serve(body: unknown): Promise<string> {
  const server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(request.url === '/health' ? body : { error: 'not found' }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a gateway that runs as a service', () => {
  it('is found where this app’s core would listen, and the app shows it instead of starting one', async () => {
    // GET /health in the gateway's shape (server/services/health/healthService.ts, docs/decisions.md#logs-and-health).
    const url = await serve({ status: 'pass', version: '1.2.0', releaseId: 10200, checks: {} });
    const port = Number(new URL(url).port);
    const coreUrl = coreUrlOf(withPreferences([], { listenPort: port, useSimulator: false }), {});
    expect(coreUrl).toBe(url);
    expect(await runningServiceAt(coreUrl)).toBe(url);

    const trayIcon = new FakeTray();
    const tray = new GatewayTray(trayIcon, {
      toggleWindow: () => undefined,
      setSendingPaused: () => undefined,
      retryNow: () => undefined,
      stopRetrying: () => undefined,
      openLogsFolder: () => undefined,
      quit: () => undefined,
    });
    tray.showAttached(url);
    expect(trayIcon.labels()[0]).toBe(`Showing the gateway service at ${url}`);
    expect(trayIcon.alert).toBe(false);
  });

  it('is not taken for another program on the port, nor found on a free one', async () => {
    const other = await serve({ status: 'ok' });
    expect(await runningServiceAt(other)).toBeUndefined();
    expect(await runningServiceAt('http://127.0.0.1:1')).toBeUndefined();
  });

  it('reads the port from SMSGW_LISTEN too, as the core would', () => {
    expect(coreUrlOf([], { SMSGW_LISTEN: '0.0.0.0:9100' })).toBe('http://127.0.0.1:9100');
    expect(coreUrlOf(['--listen', 'nonsense:x'], {})).toBeUndefined();
  });
});
