import { afterEach, describe, expect, it } from 'vitest';
import {
  basicAuthorization,
  logIn,
  readStoredSession,
  sessionStorageKey,
  storeSession,
} from '../../renderer/src/session/session.js';
import { type LoopbackServer, startLoopbackServer } from './loopbackServer.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function memoryStore() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

describe('the browser session', () => {
  it('encodes Basic credentials as UTF-8 (RFC 7617)', () => {
    expect(basicAuthorization('admin', 'password123')).toBe('Basic YWRtaW46cGFzc3dvcmQxMjM=');
    expect(basicAuthorization('jürgen', 'pässwörd')).toBe(
      `Basic ${Buffer.from('jürgen:pässwörd', 'utf8').toString('base64')}`,
    );
  });

  it('exchanges the password for an all-scopes working-day token', async () => {
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(201, { 'Content-Type': 'application/json' });
      response.end(
        '{"id":"j1","token_type":"Bearer","access_token":"tok","expires_at":"2026-11-22T18:00:00.000Z"}',
      );
    });
    const session = await logIn(server.url, 'admin', 'password123');
    expect(session).toEqual({
      mode: 'browser',
      baseUrl: server.url,
      token: 'tok',
      username: 'admin',
      expiresAt: '2026-11-22T18:00:00.000Z',
    });
    const [request] = server.requests;
    expect(request?.url).toBe('/auth/token');
    expect(request?.headers.authorization).toBe('Basic YWRtaW46cGFzc3dvcmQxMjM=');
    expect(JSON.parse(request?.body ?? '')).toEqual({ scopes: ['all:any'], ttl: 28_800 });
  });

  it('reports a wrong password as unauthorized', async () => {
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Basic realm="x"' });
      response.end('{"message":"invalid credentials"}');
    });
    await expect(logIn(server.url, 'admin', 'wrong')).rejects.toMatchObject({
      kind: 'unauthorized',
      status: 401,
    });
  });

  it('restores a stored session until it expires', () => {
    const store = memoryStore();
    storeSession(store, {
      mode: 'browser',
      baseUrl: 'http://h',
      token: 't',
      expiresAt: '2026-11-22T18:00:00Z',
    });
    expect(readStoredSession(store, Date.parse('2026-11-22T17:59:00Z'))?.token).toBe('t');
    expect(readStoredSession(store, Date.parse('2026-11-22T18:00:01Z'))).toBeUndefined();
    expect(store.values.has(sessionStorageKey)).toBe(false);
  });

  it('forgets a stored session it cannot read', () => {
    const store = memoryStore();
    store.setItem(sessionStorageKey, '{broken');
    expect(readStoredSession(store, 0)).toBeUndefined();
    expect(store.values.size).toBe(0);
  });
});
