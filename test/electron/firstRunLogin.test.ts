import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FirstRunLoginHolder } from '../../electron/firstRunLogin.js';
import { defaultOptions, type GatewayOptions } from '../../server/config/options.js';
import { createGateway, type Gateway } from '../../server/index.js';
import type { LogRecord } from '../../server/logging/logger.js';
import { ownerSessionToken } from '../support/ownerSession.js';

const running: Gateway[] = [];
const directories: string[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function startCore(dataDir: string, logs: LogRecord[], overrides: Partial<GatewayOptions> = {}) {
  const gateway = createGateway(
    {
      ...defaultOptions(),
      ...overrides,
      listen: { host: '127.0.0.1', port: 0 },
      dataDir,
      probeSerialPorts: false,
      simulatedModems: 1,
    },
    { logSinks: [(record) => logs.push(record)] },
  );
  running.push(gateway);
  return { gateway, started: await gateway.start() };
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('the first-run login in the desktop app', () => {
  it('is kept for the window until the user says they saved it, across core restarts', () => {
    const holder = new FirstRunLoginHolder();
    expect(holder.pending).toBeUndefined();
    holder.offer({ username: 'sms', generatedPassword: 'p4ssw0rd-generated' });
    // The core restarted (crash, another port): its `ready` no longer carries the password.
    holder.offer({ username: 'sms' });
    expect(holder.pending).toEqual({ username: 'sms', password: 'p4ssw0rd-generated' });
    holder.saved();
    holder.offer({ username: 'sms' });
    expect(holder.pending).toBeUndefined();
  });

  it('comes from the core’s first start only, never appears in a log, and can be changed', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-first-run-'));
    directories.push(dataDir);
    const logs: LogRecord[] = [];
    const first = await startCore(dataDir, logs);
    const password = first.started.generatedPassword;
    if (!password) throw new Error('the first start generated no password');
    expect(JSON.stringify(logs)).not.toContain(password);

    // What the window does behind "Change it", with its session token.
    const token = await ownerSessionToken(first.gateway);
    const change = await fetch(`${first.started.url}/gateway/v1/credentials`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'office', password: 'a-new-password', currentPassword: password }),
    });
    expect(change.status).toBe(204);
    const devices = (authorization: string) =>
      fetch(`${first.started.url}/devices`, { headers: { authorization } }).then(
        (response) => response.status,
      );
    expect(await devices(basic('sms', password))).toBe(401);
    expect(await devices(basic('office', 'a-new-password'))).toBe(200);
    await first.gateway.stop();

    const second = await startCore(dataDir, logs);
    expect(second.started.generatedPassword).toBeUndefined();
    expect(second.started.username).toBe('office');
    const again = await fetch(`${second.started.url}/devices`, {
      headers: { authorization: basic('office', 'a-new-password') },
    });
    expect(again.status).toBe(200);
  });

  it('refuses a login without a password of 8 characters or with a colon in the user', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-first-run-'));
    directories.push(dataDir);
    const { gateway, started } = await startCore(dataDir, []);
    const token = await ownerSessionToken(gateway);
    for (const body of [
      { username: 'office', password: 'short', currentPassword: started.generatedPassword },
      { username: 'a:b', password: 'long-enough-1', currentPassword: started.generatedPassword },
    ]) {
      const response = await fetch(`${started.url}/gateway/v1/credentials`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(400);
    }
  });

  it('is not changed from the window while --username/--password set it for this run', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-first-run-'));
    directories.push(dataDir);
    const { gateway, started } = await startCore(dataDir, [], {
      username: 'ops',
      password: 'given-at-start',
    });
    expect(started.generatedPassword).toBeUndefined();
    const response = await fetch(`${started.url}/gateway/v1/credentials`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${await ownerSessionToken(gateway)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        username: 'office',
        password: 'a-new-password',
        currentPassword: 'given-at-start',
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('--username');
  });
});
