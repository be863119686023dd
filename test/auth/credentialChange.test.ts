/**
 * Issue 36, review 3: a leaked token — the window's 15-minute session included — could set a new
 * login through PUT /gateway/v1/credentials, lock the owner out and mint itself 30-day tokens
 * with the new password, and changing the password revoked nothing. The whole gateway runs on
 * loopback with a stored (changeable) login, as the desktop app's core does.
 */
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

async function startCore() {
  const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-login-change-'));
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
  const password = started.generatedPassword ?? '';
  expect(password).not.toBe('');
  return { gateway, url: started.url, username: started.username, password };
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function call(url: string, authorization: string, method = 'GET', body?: unknown) {
  const response = await fetch(url, {
    method,
    headers: {
      authorization,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text };
}

describe('changing the login (issue 36, review 3)', () => {
  it('needs the current password, even from the window’s own session', async () => {
    const core = await startCore();
    const session = `Bearer ${await ownerSessionToken(core.gateway)}`;
    const credentials = `${core.url}/gateway/v1/credentials`;
    const wanted = { username: 'thief', password: 'a-new-password' };

    const without = await call(credentials, session, 'PUT', wanted);
    expect(without.status).toBe(400);
    expect(JSON.parse(without.text).message).toMatch(/^currentPassword/);
    const wrong = await call(credentials, session, 'PUT', { ...wanted, currentPassword: 'not-the-password' });
    expect(wrong.status).toBe(403);
    expect(JSON.parse(wrong.text).message).toMatch(/^currentPassword/);
    // The owner's login still works; the window's session did not end on a wrong confirmation.
    expect((await call(`${core.url}/devices`, basic(core.username, core.password))).status).toBe(200);
    expect((await call(`${core.url}/devices`, session)).status).toBe(200);
  });

  it('takes the right current password after ten wrong ones, as a login is', async () => {
    const core = await startCore();
    const session = `Bearer ${await ownerSessionToken(core.gateway)}`;
    const change = (currentPassword: string) =>
      call(`${core.url}/gateway/v1/credentials`, session, 'PUT', {
        username: 'thief',
        password: 'a-new-password',
        currentPassword,
      });
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await change(`guess ${attempt}`)).status).toBe(403);
    // Counted as failed logins: the name's checks are now paced, and the right one still passes.
    expect((await change(core.password)).status).toBe(204);
  });

  it("refuses the owner's login a name an app logs in with (409), so the app's login keeps working", async () => {
    const core = await startCore();
    const owner = basic(core.username, core.password);
    expect(
      (await call(`${core.url}/gateway/v1/apps`, owner, 'POST', { name: 'shop', password: 'shop-secret-1' }))
        .status,
    ).toBe(201);
    const renamed = await call(`${core.url}/gateway/v1/credentials`, owner, 'PUT', {
      username: 'shop',
      password: 'a-new-password',
      currentPassword: core.password,
    });
    expect(renamed.status).toBe(409);
    expect(JSON.parse(renamed.text).message).toMatch(/^username: /);
    expect((await call(`${core.url}/devices`, basic('shop', 'shop-secret-1'))).status).toBe(200);
  });

  it('ends every token issued before, the window’s session included', async () => {
    const core = await startCore();
    const session = `Bearer ${await ownerSessionToken(core.gateway)}`;
    const issued = await call(`${core.url}/auth/token`, basic(core.username, core.password), 'POST', {
      scopes: ['devices:list'],
      ttl: 30 * 86_400,
    });
    const pair = JSON.parse(issued.text) as { access_token: string; refresh_token: string };

    const changed = await call(`${core.url}/gateway/v1/credentials`, session, 'PUT', {
      username: 'office',
      password: 'a-new-password',
      currentPassword: core.password,
    });
    expect(changed.status).toBe(204);

    expect((await call(`${core.url}/devices`, `Bearer ${pair.access_token}`)).status).toBe(401);
    expect(
      (await call(`${core.url}/auth/token/refresh`, `Bearer ${pair.refresh_token}`, 'POST')).status,
    ).toBe(401);
    expect((await call(`${core.url}/devices`, session)).status).toBe(401);
    expect((await call(`${core.url}/devices`, basic(core.username, core.password))).status).toBe(401);
    expect((await call(`${core.url}/devices`, basic('office', 'a-new-password'))).status).toBe(200);
    // The window signs in again with a new session, as it does after any 401.
    expect(
      (await call(`${core.url}/devices`, `Bearer ${await ownerSessionToken(core.gateway)}`)).status,
    ).toBe(200);
  });
});
