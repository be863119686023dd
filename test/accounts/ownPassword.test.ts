import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultOptions } from '../../server/config/options.js';
import { createGateway } from '../../server/index.js';
import {
  basicHeader,
  type GatewayUnderTest,
  startGatewayUnderTest,
} from '../compat/support/gatewayUnderTest.js';
import { basicAuthFor } from '../support/httpHarness.js';

/**
 * Issue 39: a person changes their own password (PUT /gateway/v1/me/password) with the current
 * one, under the rules an owner's password for them follows; a wrong current password counts
 * as a failed login of the caller. On the whole gateway (real storage, the real server).
 */
let gateway: GatewayUnderTest | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const route = '/gateway/v1/me/password';

async function withOperator(maxFailures?: number) {
  const under = await startGatewayUnderTest(
    {},
    maxFailures === undefined ? {} : { loginThrottle: { maxFailures } },
  );
  gateway = under;
  const added = await under.request('POST', '/gateway/v1/users', {
    json: { name: 'ana', password: 'ana-first-pass', role: 'operator' },
  });
  expect(added.status).toBe(201);
  return under;
}

describe('changing your own password', () => {
  it('needs the current password, keeps the password rules and ends your tokens', async () => {
    const under = await withOperator();
    const ana = basicAuthFor('ana', 'ana-first-pass');
    const issued = await under.request('POST', '/auth/token', {
      json: { scopes: ['messages:list'] },
      authorization: ana,
    });
    expect(issued.status).toBe(201);
    const anaToken = `Bearer ${(issued.body as { access_token: string }).access_token}`;

    const wrong = await under.request('PUT', route, {
      json: { currentPassword: 'not-her-password', password: 'ana-second-pass' },
      authorization: ana,
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ field: 'currentPassword' });
    const short = await under.request('PUT', route, {
      json: { currentPassword: 'ana-first-pass', password: 'short' },
      authorization: ana,
    });
    expect(short.status).toBe(400);
    expect((short.body as { message: string }).message).toMatch(/password/);
    // A narrow API token may not, even with the password.
    const byToken = await under.request('PUT', route, {
      json: { currentPassword: 'ana-first-pass', password: 'ana-second-pass' },
      authorization: anaToken,
    });
    expect(byToken.status).toBe(403);

    const changed = await under.request('PUT', route, {
      json: { currentPassword: 'ana-first-pass', password: 'ana-second-pass' },
      authorization: ana,
    });
    expect(changed.status).toBe(204);
    expect((await under.request('GET', '/gateway/v1/me', { authorization: ana })).status).toBe(401);
    expect((await under.request('GET', '/messages', { authorization: anaToken })).status).toBe(401);
    const me = await under.request('GET', '/gateway/v1/me', {
      authorization: basicAuthFor('ana', 'ana-second-pass'),
    });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: 'ana', role: 'operator' });
    // Nobody else's login changed.
    expect((await under.request('GET', '/gateway/v1/me', { authorization: basicHeader })).status).toBe(200);
  });

  it('changes the owner login’s password and keeps its name', async () => {
    // A stored login (none given on the command line), as the desktop app's core has.
    const dataDir = await mkdtemp(join(tmpdir(), 'smsgw-own-password-'));
    const core = createGateway(
      { ...defaultOptions(), listen: { host: '127.0.0.1', port: 0 }, dataDir, probeSerialPorts: false },
      { logSinks: [] },
    );
    try {
      const started = await core.start();
      const owner = basicAuthFor(started.username, started.generatedPassword ?? '');
      const put = await fetch(`${started.url}${route}`, {
        method: 'PUT',
        headers: { authorization: owner, 'content-type': 'application/json' },
        body: JSON.stringify({ currentPassword: started.generatedPassword, password: 'owner-second-pass' }),
      });
      expect(put.status).toBe(204);
      const meWith = (authorization: string) =>
        fetch(`${started.url}/gateway/v1/me`, { headers: { authorization } });
      expect((await meWith(owner)).status).toBe(401);
      const me = await meWith(basicAuthFor(started.username, 'owner-second-pass'));
      expect(await me.json()).toMatchObject({ name: started.username, role: 'owner' });
    } finally {
      await core.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('is not for an app, whose password its owner sets', async () => {
    const under = await withOperator();
    expect(
      (await under.request('POST', '/gateway/v1/apps', { json: { name: 'shop', password: 'shop-secret-1' } }))
        .status,
    ).toBe(201);
    const refused = await under.request('PUT', route, {
      json: { currentPassword: 'shop-secret-1', password: 'shop-secret-2' },
      authorization: basicAuthFor('shop', 'shop-secret-1'),
    });
    expect(refused.status).toBe(403);
    expect(
      (await under.request('GET', '/messages', { authorization: basicAuthFor('shop', 'shop-secret-1') }))
        .status,
    ).toBe(200);
  });

  it('takes the right current password after wrong ones, which count as failed logins', async () => {
    const under = await withOperator(3);
    const ana = basicAuthFor('ana', 'ana-first-pass');
    const attempt = (currentPassword: string) =>
      under.request('PUT', route, {
        json: { currentPassword, password: 'ana-second-pass' },
        authorization: ana,
      });
    for (let guess = 0; guess < 3; guess++) expect((await attempt(`guess ${guess}`)).status).toBe(403);
    expect((await attempt('ana-first-pass')).status).toBe(204);
  });
});
