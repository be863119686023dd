import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreSupervisor } from '../../electron/coreSupervisor.js';
import { ManualClock } from '../../server/clock/manualClock.js';
import { defaultOptions } from '../../server/config/options.js';
import { createGateway, type Gateway } from '../../server/index.js';
import { silentLogger } from '../../server/logging/logger.js';
import { fakeUtilityProcess } from './support/electronDouble.js';

/**
 * Issue 39: each person signs in to the desktop window as themselves. While the owner is the
 * only person the window gets the owner's session over IPC, as before people existed; once
 * there are others the core hands out none, and the window shows the sign-in form.
 */
const running: Gateway[] = [];
const directories: string[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe("the desktop window's session", () => {
  it('is the owner’s only while the owner is the only person', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-window-sign-in-'));
    directories.push(dataDir);
    const gateway = createGateway(
      { ...defaultOptions(), listen: { host: '127.0.0.1', port: 0 }, dataDir, probeSerialPorts: false },
      { logSinks: [] },
    );
    running.push(gateway);
    const started = await gateway.start();
    const owner = basic(started.username, started.generatedPassword ?? '');
    const call = (method: string, path: string, authorization: string, body?: unknown) =>
      fetch(`${started.url}${path}`, {
        method,
        headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    const ownerSession = await gateway.windowSessionToken();
    expect(ownerSession).toEqual(expect.any(String));
    expect((await call('GET', '/gateway/v1/me', `Bearer ${ownerSession}`)).status).toBe(200);

    const added = await call('POST', '/gateway/v1/users', owner, {
      name: 'olga',
      password: 'operator-pass-1',
      role: 'operator',
    });
    expect(added.status).toBe(201);
    await expect(gateway.windowSessionToken()).resolves.toBeUndefined();
    // She signs in as herself, as the window's form does.
    const signedIn = await call('POST', '/auth/token', basic('olga', 'operator-pass-1'), {
      scopes: ['all:any'],
    });
    expect(signedIn.status).toBe(201);

    const { id } = (await added.json()) as { id: string };
    expect((await call('DELETE', `/gateway/v1/users/${id}`, owner)).status).toBe(204);
    await expect(gateway.windowSessionToken()).resolves.toEqual(expect.any(String));
  });

  it('reaches the window through the supervisor as no token, not as a failure', async () => {
    const clock = new ManualClock();
    const electron = fakeUtilityProcess();
    const supervisor = new CoreSupervisor({
      fork: electron.fork,
      entry: '/app/dist/electron/coreProcess.js',
      args: () => [],
      clock,
      logger: silentLogger,
      output: () => undefined,
    });
    supervisor.start();
    const core = electron.children[0];
    if (!core) throw new Error('no core started');
    core.reply({ type: 'ready', baseUrl: 'http://127.0.0.1:8080', simulated: false, username: 'sms' });
    const owner = supervisor.requestSessionToken();
    const people = supervisor.requestSessionToken();
    const [first, second] = core.posted.flatMap((message) =>
      message.type === 'renew-session-token' ? [message.requestId] : [],
    );
    core.reply({ type: 'session-token', requestId: first, sessionToken: 'owner-token' });
    core.reply({ type: 'session-token', requestId: second });
    await expect(owner).resolves.toBe('owner-token');
    await expect(people).resolves.toBeUndefined();
  });
});
