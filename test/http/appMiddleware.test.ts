import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type LogRecord } from '../../server/logging/logger.js';
import { type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

let harness: HttpHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const message = { textMessage: { text: 'hi' }, phoneNumbers: ['+15551234567'] };
const errorText = (body: unknown) => (body as { message: string }).message;

describe('Host check (DNS rebinding)', () => {
  it('refuses a request naming a foreign host with 403 and a message naming the host', async () => {
    harness = await startHttpHarness();
    const response = await harness.request('/messages', { headers: { Host: 'evil.example:8080' } });
    expect(response.status).toBe(403);
    expect(errorText(response.body)).toContain('evil.example');
  });

  it.each(['localhost', '127.0.0.1', '[::1]', 'LOCALHOST'])('accepts Host %s with any port', async (host) => {
    harness = await startHttpHarness();
    const response = await harness.request('/health', { headers: { Host: `${host}:${harness.port}` } });
    expect(response.status).toBe(200);
  });

  it('accepts extra names the user allowed', async () => {
    harness = await startHttpHarness({ allowedHosts: ['localhost', 'gateway.lan'] });
    expect((await harness.request('/health', { headers: { Host: 'gateway.lan' } })).status).toBe(200);
    expect((await harness.request('/health', { headers: { Host: '127.0.0.1' } })).status).toBe(403);
  });
});

describe('request bodies', () => {
  it('answers 413 for a body above the limit', async () => {
    harness = await startHttpHarness({ bodyLimitBytes: 1024 });
    const response = await harness.request('/webhooks', {
      method: 'POST',
      json: { url: `https://example.com/${'x'.repeat(2000)}`, event: 'sms:received' },
    });
    expect(response.status).toBe(413);
    expect(errorText(response.body)).toMatch(/^body: /);
    expect((await harness.request('/webhooks')).body).toEqual([]);
  });

  it('takes a message body up to the bulk limit, for an MMS’s attachments', async () => {
    harness = await startHttpHarness({ bodyLimitBytes: 1024 });
    const response = await harness.request('/messages', {
      method: 'POST',
      json: { ...message, textMessage: { text: 'x'.repeat(2000) } },
    });
    expect(response.status).toBe(202);
    expect(harness.storage.messages.count()).toBe(1);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded'])('answers 415 for a %s body', async (type) => {
    harness = await startHttpHarness();
    const response = await harness.request('/messages', {
      method: 'POST',
      raw: JSON.stringify(message),
      headers: { 'Content-Type': type },
    });
    expect(response.status).toBe(415);
    expect(errorText(response.body)).toMatch(/^body: /);
  });

  it.each([
    ['broken JSON', '{"phoneNumbers": ['],
    ['a bare JSON string', '"hello"'],
  ])('answers 400 for %s', async (_case, raw) => {
    harness = await startHttpHarness();
    const response = await harness.request('/messages', {
      method: 'POST',
      raw,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(errorText(response.body)).toMatch(/^body: /);
  });

  it('accepts application/json with a charset parameter', async () => {
    harness = await startHttpHarness();
    const response = await harness.request('/messages', {
      method: 'POST',
      raw: JSON.stringify(message),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(202);
  });
});

describe('authentication and authorisation', () => {
  it('answers 401 with both challenges when credentials are missing', async () => {
    harness = await startHttpHarness();
    const response = await harness.request('/messages', { authorization: null });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain('Basic realm="SMS Gateway"');
    expect(response.headers['www-authenticate']).toContain('Bearer');
    expect(response.body).toEqual({ message: expect.any(String) });
  });

  it('answers 401 for a wrong password, and the right one after many wrong ones', async () => {
    harness = await startHttpHarness();
    const wrong = `Basic ${Buffer.from('admin:nope').toString('base64')}`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      statuses.push((await harness.request('/messages', { authorization: wrong })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    const right = harness.request('/messages');
    await harness.clock.advance(1_000);
    expect((await right).status).toBe(200);
  });

  it('answers 403 when a token lacks the scope, and serves the route when it holds it', async () => {
    harness = await startHttpHarness();
    const listOnly = await harness.bearer(['messages:list']);
    expect((await harness.request('/messages', { authorization: listOnly })).status).toBe(200);
    const send = await harness.request('/messages', {
      method: 'POST',
      json: message,
      authorization: listOnly,
    });
    expect(send.status).toBe(403);
    expect(harness.storage.messages.count()).toBe(0);
    const sender = await harness.bearer(['messages:send']);
    expect(
      (await harness.request('/messages', { method: 'POST', json: message, authorization: sender })).status,
    ).toBe(202);
  });

  it('checks credentials before the body, so an anonymous client learns nothing about validation', async () => {
    harness = await startHttpHarness();
    const response = await harness.request('/messages', { method: 'POST', json: {}, authorization: null });
    expect(response.status).toBe(401);
  });
});

describe('errors', () => {
  it('answers unknown routes with 404 and a JSON message', async () => {
    harness = await startHttpHarness();
    const response = await harness.request('/no/such/route');
    expect(response.status).toBe(404);
    expect(errorText(response.body)).toContain('/no/such/route');
  });

  it('answers a method the route does not serve with 405 and a JSON message', async () => {
    harness = await startHttpHarness();
    const response = await harness.request('/devices', { method: 'PUT', json: {} });
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ message: expect.any(String) });
  });

  it('hides the text of an unexpected failure behind a generic 500 and logs it with its stack', async () => {
    const records: LogRecord[] = [];
    harness = await startHttpHarness({
      logger: createLogger({ level: 'DEBUG', sinks: [(record) => records.push(record)] }),
    });
    harness.devices.list = () => {
      throw new Error('disk on fire at /home/user/secret');
    };
    const response = await harness.request('/devices');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ message: 'internal server error' });
    const logged = records.find((record) => record.priority === 'ERROR');
    expect(logged?.context).toMatchObject({ method: 'GET', path: '/devices' });
    expect(String(logged?.context?.error)).toMatch(/disk on fire[\s\S]*at /);
  });
});

describe('GET / and the UI', () => {
  let uiDir: string;
  beforeAll(async () => {
    uiDir = await mkdtemp(join(tmpdir(), 'sms-gateway-ui-'));
    await mkdir(join(uiDir, 'dist', 'assets'), { recursive: true });
    await writeFile(join(uiDir, 'dist', 'index.html'), '<!doctype html><title>Gateway UI</title>');
    await writeFile(join(uiDir, 'dist', 'assets', 'app-1234.js'), 'console.log("ui")');
    await writeFile(join(uiDir, 'secret.txt'), 'outside the UI directory');
  });
  afterAll(async () => {
    await rm(uiDir, { recursive: true, force: true });
  });

  it('answers API clients at / with the upstream status object once they are authenticated', async () => {
    harness = await startHttpHarness({ uiDirectory: join(uiDir, 'dist') });
    const response = await harness.request('/');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok', model: 'Desktop SMS Gateway', version: '1.2.3' });
  });

  it('answers API clients at / without credentials with 401 and WWW-Authenticate', async () => {
    harness = await startHttpHarness({ uiDirectory: join(uiDir, 'dist') });
    const response = await harness.request('/', { authorization: null });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBeDefined();
  });

  it('redirects a browser at / to /ui/', async () => {
    harness = await startHttpHarness({ uiDirectory: join(uiDir, 'dist') });
    const response = await harness.request('/', {
      authorization: null,
      headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/ui/');
  });

  it('serves index.html for /ui/ and for client-side routes, and assets by type', async () => {
    harness = await startHttpHarness({ uiDirectory: join(uiDir, 'dist') });
    for (const path of ['/ui/', '/ui/messages/abc']) {
      const page = await harness.request(path, { authorization: null });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.text).toContain('Gateway UI');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    }
    const asset = await harness.request('/ui/assets/app-1234.js', { authorization: null });
    expect(asset.headers['content-type']).toContain('javascript');
    expect(asset.text).toBe('console.log("ui")');
    expect((await harness.request('/ui/assets/missing.js', { authorization: null })).status).toBe(404);
    expect((await harness.request('/ui/%E0%A4%A.js', { authorization: null })).status).toBe(404);
    const head = await harness.request('/ui/', { method: 'HEAD', authorization: null });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toContain('text/html');
  });

  it('never serves a file outside the UI directory', async () => {
    harness = await startHttpHarness({ uiDirectory: join(uiDir, 'dist') });
    for (const path of ['/ui/../secret.txt', '/ui/%2e%2e/secret.txt', '/ui/..%2fsecret.txt']) {
      const response = await harness.request(path, { authorization: null });
      expect(response.text).not.toContain('outside the UI directory');
    }
  });
});

describe('CORS', () => {
  it('sends no CORS headers unless origins are configured', async () => {
    harness = await startHttpHarness();
    const response = await harness.request('/health', { headers: { Origin: 'https://app.example' } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a preflight from a configured origin without credentials', async () => {
    harness = await startHttpHarness({ corsOrigins: ['https://app.example'] });
    const preflight = await harness.request('/messages', {
      method: 'OPTIONS',
      authorization: null,
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(preflight.headers['access-control-allow-headers']).toContain('Authorization');
    const list = await harness.request('/messages', { headers: { Origin: 'https://app.example' } });
    expect(list.headers['access-control-expose-headers']).toContain('X-Total-Count');
    const other = await harness.request('/messages', { headers: { Origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('route mounting', () => {
  it.each(['', '/3rdparty/v1', '/api/3rdparty/v1'])(
    'serves the token and webhook routes of the other modules under %s too',
    async (base) => {
      harness = await startHttpHarness();
      const token = await harness.request(`${base}/auth/token`, {
        method: 'POST',
        json: { scopes: ['messages:send'] },
      });
      expect(token.status).toBe(201);
      expect((await harness.request(`${base}/webhook`)).status).toBe(200);
    },
  );

  it('registers extension modules from the composition root, documented and at the root only', async () => {
    harness = await startHttpHarness({
      extensions: [
        (api) =>
          api.route({
            method: 'get',
            path: '/gateway/v1/ping',
            summary: 'ping',
            tag: 'Gateway extensions',
            access: { scope: 'devices:list' },
            responses: { 200: { description: 'pong' } },
            handle: async () => ({ status: 200, body: { pong: true } }),
          }),
      ],
    });
    expect((await harness.request('/gateway/v1/ping')).body).toEqual({ pong: true });
    expect((await harness.request('/3rdparty/v1/gateway/v1/ping')).status).toBe(404);
    const document = (await harness.request('/docs/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain('/gateway/v1/ping');
  });

  it('serves our /gateway/v1 extensions at the root only', async () => {
    harness = await startHttpHarness();
    expect((await harness.request('/3rdparty/v1/gateway/v1/events')).status).toBe(404);
    expect((await harness.request('/gateway/v1/events', { authorization: null })).status).toBe(401);
  });
});
