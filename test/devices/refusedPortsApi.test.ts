/**
 * Issue 41, item 5: a USB modem's port that discovery may not open (Linux: the user is not in
 * `dialout`) is published as `{ path, code, fix }` at GET /gateway/v1/serial-ports/refused and
 * announced on the live stream, instead of being swallowed as "no modem". The whole gateway runs
 * as users run it (createGateway, the real Koa server on loopback, background port probing, the
 * REAL serialport binding: test/support/refusedUsbPort.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { defaultOptions } from '../../server/config/options.js';
import { type PtyModem, startPtyModem } from '../../server/devices/simulator/ptyModem.js';
import { createGateway } from '../../server/index.js';
import { silentLogger } from '../../server/logging/logger.js';
import { pollUntil } from '../support/pollUntil.js';
import { createRefusedUsbPort, type RefusedUsbPort } from '../support/refusedUsbPort.js';

const user = 'admin';
const password = 'refused-ports-secret';
const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Scene {
  baseUrl: string;
  port: RefusedUsbPort;
}

async function startGatewayWithRefusedUsbPort(): Promise<Scene> {
  const port = await createRefusedUsbPort();
  cleanups.push(() => port.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'refused-port-data-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const gateway = createGateway(
    {
      ...defaultOptions(),
      dataDir,
      listen: { host: '127.0.0.1', port: 0 },
      username: user,
      password,
      simulatedModems: 0,
      simulatorFallback: false,
      probeSerialPorts: true,
    },
    { logSinks: [], serial: port.serial },
  );
  const started = await gateway.start();
  cleanups.push(() => gateway.stop());
  return { baseUrl: started.url, port };
}

async function get<T>(baseUrl: string, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl}${path}`, { headers: { Authorization: authorization } });
  return { status: response.status, body: (await response.json()) as T };
}

/** Reads GET /gateway/v1/events into `text` until closed. */
async function followEvents(baseUrl: string): Promise<{ text: () => string }> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/gateway/v1/events`, {
    headers: { Authorization: authorization },
    signal: controller.signal,
  });
  cleanups.push(() => controller.abort());
  const reader = response.body?.getReader();
  if (!reader) throw new Error('the event stream has no body');
  let text = '';
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      text += decoder.decode(chunk.value, { stream: true });
    }
  })();
  await pollUntil(() => text.includes(': connected'), { what: 'the event stream to open' });
  return { text: () => text };
}

describe('a USB port discovery may not open', () => {
  it('is published with its code and fix, announced live, and cleared once the modem opens', async () => {
    const scene = await startGatewayWithRefusedUsbPort();
    const events = await followEvents(scene.baseUrl);
    scene.port.plugIn();

    let refused: { status: number; body: unknown[] } = { status: 0, body: [] };
    await pollUntil(
      async () => {
        refused = await get<unknown[]>(scene.baseUrl, '/gateway/v1/serial-ports/refused');
        return refused.body.length > 0;
      },
      { limitMs: 20_000, what: 'discovery to report the refused port' },
    );
    expect(refused).toEqual({
      status: 200,
      body: [
        {
          path: scene.port.path,
          code: 'TransportAccessDenied',
          fix: expect.stringMatching(/^sudo usermod -aG (dialout|uucp) \$USER$/),
        },
      ],
    });
    await pollUntil(() => events.text().includes('event: refused-ports'), {
      what: 'the refused-ports live event',
    });
    const health = await get<{ checks: Record<string, { description: string }> }>(scene.baseUrl, '/health');
    expect(health.body.checks['modems:connected']?.description).toContain(scene.port.path);

    // The user fixed it (here: the port now leads to a modem): the next probe opens it.
    const pty: PtyModem = await startPtyModem({ clock: systemClock, logger: silentLogger });
    cleanups.push(() => pty.close());
    await scene.port.pointAt(pty.path);
    await pollUntil(
      async () => (await get<unknown[]>(scene.baseUrl, '/gateway/v1/serial-ports/refused')).body.length === 0,
      { limitMs: 30_000, what: 'the refusal to clear once the port opens' },
    );
    await pollUntil(
      async () => {
        const devices = await get<{ modem: { port: string; status: string } }[]>(scene.baseUrl, '/devices');
        return devices.body.some(
          (device) => device.modem.port === scene.port.path && device.modem.status === 'ready',
        );
      },
      { limitMs: 20_000, what: 'the modem on the port to be ready' },
    );
    expect(events.text().match(/event: refused-ports/g)).toHaveLength(2);
  }, 60_000);

  it('needs devices:list, like the serial port list', async () => {
    const scene = await startGatewayWithRefusedUsbPort();
    const anonymous = await fetch(`${scene.baseUrl}/gateway/v1/serial-ports/refused`);
    expect(anonymous.status).toBe(401);
    const document = await fetch(`${scene.baseUrl}/docs/openapi.json`).then(
      (response) =>
        response.json() as Promise<{ paths: Record<string, Record<string, Record<string, unknown>>> }>,
    );
    expect(document.paths['/gateway/v1/serial-ports/refused']?.get?.['x-required-scope']).toBe(
      'devices:list',
    );
  });
});
