import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

interface TokenBody {
  id: string;
  token_type: string;
  access_token: string;
  refresh_token: string;
  expires_at: string;
}

describe('token routes on the real HTTP app', () => {
  let gateway: HttpHarness;

  beforeEach(async () => {
    gateway = await startHttpHarness();
  });

  afterEach(async () => {
    await gateway.close();
  });

  const issue = async (scopes: string[], authorization?: string, ttl?: number) => {
    const response = await gateway.request('/auth/token', {
      method: 'POST',
      json: ttl === undefined ? { scopes } : { scopes, ttl },
      ...(authorization ? { authorization } : {}),
    });
    return { ...response, token: response.body as TokenBody };
  };

  it.each(['', '/3rdparty/v1', '/api/3rdparty/v1'])(
    'issues a token pair with Basic credentials at %s/auth/token (201, snake_case fields)',
    async (base) => {
      const response = await gateway.request(`${base}/auth/token`, {
        method: 'POST',
        json: { scopes: ['webhooks:list'], ttl: 600 },
      });

      expect(response.status).toBe(201);
      const token = response.body as TokenBody;
      expect(token).toEqual({
        id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        token_type: 'Bearer',
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/),
        tokenType: 'Bearer',
        accessToken: token.access_token,
        refreshToken: token.refresh_token,
        expiresAt: token.expires_at,
      });
      expect(Date.parse(token.expires_at)).toBe(gateway.clock.now() + 600_000);
    },
  );

  it('grants exactly the requested scopes: allowed routes answer, others 403', async () => {
    const { token } = await issue(['webhooks:list']);
    const authorization = `Bearer ${token.access_token}`;

    expect((await gateway.request('/webhooks', { authorization })).status).toBe(200);
    const refused = await gateway.request('/settings', { authorization });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: expect.any(String) });
  });

  it.each([
    ['no scopes', { scopes: [] }, /^scopes/],
    ['an unknown scope', { scopes: ['messages:fly'] }, /^scopes/],
    ['the system scope tokens:refresh', { scopes: ['tokens:refresh'] }, /^scopes/],
    ['a missing scopes field', {}, /^scopes/],
    ['a negative ttl', { scopes: ['logs:read'], ttl: -5 }, /^ttl/],
    ['a ttl beyond 720 h', { scopes: ['logs:read'], ttl: 720 * 3_600 + 1 }, /^ttl/],
  ])('answers 400 naming the field for %s', async (_name, json, field) => {
    const response = await gateway.request('/auth/token', { method: 'POST', json });
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message).toMatch(field);
  });

  it('answers 401 with WWW-Authenticate without credentials or with a wrong password', async () => {
    for (const authorization of [null, `Basic ${Buffer.from('admin:wrong-password').toString('base64')}`]) {
      const response = await gateway.request('/auth/token', {
        method: 'POST',
        json: { scopes: ['logs:read'] },
        authorization,
      });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/Basic/);
    }
  });

  it('never reads a token from the query string', async () => {
    const { token } = await issue(['webhooks:list']);
    const response = await gateway.request(`/webhooks?access_token=${token.access_token}`, {
      authorization: null,
    });
    expect(response.status).toBe(401);
  });

  it('lets a Bearer token with tokens:manage issue only scopes it holds itself', async () => {
    const manager = `Bearer ${(await issue(['tokens:manage', 'logs:read'])).token.access_token}`;

    expect((await issue(['logs:read'], manager)).status).toBe(201);
    const beyond = await issue(['settings:write'], manager);
    expect(beyond.status).toBe(403);
    expect((beyond.body as { message: string }).message).toMatch(/^scopes/);
  });

  it('never lets a token mint a pair that outlives it, through refreshes included', async () => {
    const session = (await issue(['all:any'], undefined, 600)).token;
    const bearer = `Bearer ${session.access_token}`;

    const longer = await issue(['messages:send'], bearer, 30 * 86_400);
    expect(longer.status).toBe(403);
    expect((longer.body as { message: string }).message).toMatch(/^ttl: at most 600 seconds/);

    // Without a ttl the default (1 h) is cut to the asker's end; the refresh token ends there too.
    const minted = await issue(['messages:send'], bearer);
    expect(minted.status).toBe(201);
    const sessionEnd = Date.parse(session.expires_at);
    expect(Date.parse(minted.token.expires_at)).toBe(sessionEnd);
    const refreshed = await gateway.request('/auth/token/refresh', {
      method: 'POST',
      authorization: `Bearer ${minted.token.refresh_token}`,
    });
    expect(refreshed.status).toBe(201);
    expect(Date.parse((refreshed.body as TokenBody).expires_at)).toBe(sessionEnd);
    await gateway.clock.advance(601_000);
    const late = await gateway.request('/auth/token/refresh', {
      method: 'POST',
      authorization: `Bearer ${(refreshed.body as TokenBody).refresh_token}`,
    });
    expect(late.status).toBe(401);

    // The password still makes a token of any allowed length.
    expect((await issue(['messages:send'], undefined, 30 * 86_400)).status).toBe(201);
  });

  it('refuses token issue to a Bearer token without tokens:manage (403)', async () => {
    const reader = `Bearer ${(await issue(['logs:read'])).token.access_token}`;
    expect((await issue(['logs:read'], reader)).status).toBe(403);
  });

  it('rotates the pair on refresh (201); a replayed refresh token gets 401 and revokes the new pair', async () => {
    const first = (await issue(['webhooks:list'])).token;

    const refreshed = await gateway.request('/auth/token/refresh', {
      method: 'POST',
      authorization: `Bearer ${first.refresh_token}`,
    });
    expect(refreshed.status).toBe(201);
    const second = refreshed.body as TokenBody;
    expect(second.id).not.toBe(first.id);

    expect(
      (await gateway.request('/webhooks', { authorization: `Bearer ${second.access_token}` })).status,
    ).toBe(200);
    expect(
      (await gateway.request('/webhooks', { authorization: `Bearer ${first.access_token}` })).status,
    ).toBe(401);
    const replay = await gateway.request('/auth/token/refresh', {
      method: 'POST',
      authorization: `Bearer ${first.refresh_token}`,
    });
    expect(replay.status).toBe(401);
    // The replay may be a thief's: the pair rotated from it is revoked as well.
    expect(
      (await gateway.request('/webhooks', { authorization: `Bearer ${second.access_token}` })).status,
    ).toBe(401);
  });

  it('refuses refresh with an access token or with Basic credentials (401)', async () => {
    const { token } = await issue(['webhooks:list']);
    for (const authorization of [`Bearer ${token.access_token}`, undefined]) {
      const response = await gateway.request('/auth/token/refresh', {
        method: 'POST',
        ...(authorization ? { authorization } : {}),
      });
      expect(response.status).toBe(401);
    }
  });

  it('refuses a refresh token on an ordinary route (401)', async () => {
    const { token } = await issue(['webhooks:list']);
    const response = await gateway.request('/webhooks', { authorization: `Bearer ${token.refresh_token}` });
    expect(response.status).toBe(401);
  });

  it('revokes a token and its refresh token with DELETE /auth/token/{jti} (204)', async () => {
    const { token } = await issue(['webhooks:list']);

    const revoked = await gateway.request(`/3rdparty/v1/auth/token/${token.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');

    expect(
      (await gateway.request('/webhooks', { authorization: `Bearer ${token.access_token}` })).status,
    ).toBe(401);
    const refresh = await gateway.request('/auth/token/refresh', {
      method: 'POST',
      authorization: `Bearer ${token.refresh_token}`,
    });
    expect(refresh.status).toBe(401);
  });

  it('ends the pairs rotated from a token when DELETE names the id given at issue (issue 36)', async () => {
    const first = (await issue(['webhooks:list'])).token;
    const refreshed = await gateway.request('/auth/token/refresh', {
      method: 'POST',
      authorization: `Bearer ${first.refresh_token}`,
    });
    const second = refreshed.body as TokenBody;

    expect((await gateway.request(`/auth/token/${first.id}`, { method: 'DELETE' })).status).toBe(204);

    const authorization = `Bearer ${second.access_token}`;
    expect((await gateway.request('/webhooks', { authorization })).status).toBe(401);
    const again = await gateway.request('/auth/token/refresh', {
      method: 'POST',
      authorization: `Bearer ${second.refresh_token}`,
    });
    expect(again.status).toBe(401);
  });

  it('lists the issued tokens at GET /gateway/v1/tokens for tokens:manage, marking the caller’s own (issue 36)', async () => {
    const app = (await issue(['messages:send'], undefined, 3_600)).token;
    const manager = (await issue(['tokens:manage'])).token;
    const reader = (await issue(['messages:list'])).token;

    expect(
      (await gateway.request('/gateway/v1/tokens', { authorization: `Bearer ${reader.access_token}` }))
        .status,
    ).toBe(403);
    const listed = await gateway.request('/gateway/v1/tokens', {
      authorization: `Bearer ${manager.access_token}`,
    });
    expect(listed.status).toBe(200);
    const items = listed.body as Array<Record<string, unknown>>;
    expect(items.map((item) => item.id).sort()).toEqual([app.id, manager.id, reader.id].sort());
    expect(items.find((item) => item.id === app.id)).toEqual({
      id: app.id,
      scopes: ['messages:send'],
      issuedBy: 'password',
      issuedAt: expect.stringMatching(/^\d{4}-/),
      expiresAt: expect.stringMatching(/^\d{4}-/),
      current: false,
    });
    expect(items.find((item) => item.id === manager.id)).toMatchObject({ current: true });
    expect(listed.text).not.toContain(app.access_token);
  });

  it('revokes every token with DELETE /gateway/v1/tokens; the password still works (issue 36)', async () => {
    const app = (await issue(['webhooks:list'])).token;
    const manager = (await issue(['tokens:manage'])).token;
    const reader = `Bearer ${(await issue(['webhooks:list'])).token.access_token}`;

    expect(
      (await gateway.request('/gateway/v1/tokens', { method: 'DELETE', authorization: reader })).status,
    ).toBe(403);
    const revoked = await gateway.request('/gateway/v1/tokens', {
      method: 'DELETE',
      authorization: `Bearer ${manager.access_token}`,
    });
    expect(revoked.status).toBe(204);
    for (const token of [app.access_token, manager.access_token]) {
      expect((await gateway.request('/webhooks', { authorization: `Bearer ${token}` })).status).toBe(401);
    }
    const refresh = await gateway.request('/auth/token/refresh', {
      method: 'POST',
      authorization: `Bearer ${app.refresh_token}`,
    });
    expect(refresh.status).toBe(401);
    expect((await gateway.request('/webhooks')).status).toBe(200);
    expect(((await gateway.request('/gateway/v1/tokens')).body as unknown[]).length).toBe(0);
  });

  it('refuses DELETE /auth/token/{jti} without tokens:manage (403)', async () => {
    const { token } = await issue(['webhooks:list']);
    const response = await gateway.request(`/auth/token/${token.id}`, {
      method: 'DELETE',
      authorization: `Bearer ${token.access_token}`,
    });
    expect(response.status).toBe(403);
  });

  it('answers 401 once the access token has expired', async () => {
    const { token } = await issue(['webhooks:list'], undefined, 60);
    await gateway.clock.advance(60_000);
    expect(
      (await gateway.request('/webhooks', { authorization: `Bearer ${token.access_token}` })).status,
    ).toBe(401);
  });

  it('documents the token routes and their request scopes in the OpenAPI document', async () => {
    const response = await gateway.request('/docs/openapi.json');
    const paths = (response.body as { paths: Record<string, Record<string, unknown>> }).paths;

    expect(Object.keys(paths['/auth/token'] ?? {})).toEqual(['post']);
    expect(Object.keys(paths['/auth/token/refresh'] ?? {})).toEqual(['post']);
    expect(Object.keys(paths['/auth/token/{jti}'] ?? {})).toEqual(['delete']);
    const documented = JSON.stringify(paths['/auth/token']);
    expect(documented).toContain('"messages:send"');
    expect(documented).not.toContain('"tokens:refresh"');
  });

  it('lets the right password in after too many wrong ones, never locking the login out', async () => {
    const wrong = `Basic ${Buffer.from('admin:wrong-password').toString('base64')}`;
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await gateway.request('/webhooks', { authorization: wrong })).status).toBe(401);
    }
    expect((await gateway.request('/webhooks')).status).toBe(200);
  });
});
