/**
 * The HTTP findings of the outside security review (issue 12), each against the real Koa app on
 * a loopback port. RELIABILITY.md, "Security review", lists which check lives where.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type LogRecord } from '../../server/logging/logger.js';
import { launchBrowser, openTab } from '../support/browser.js';
import { basicAuth, type HttpHarness, startHttpHarness } from '../support/httpHarness.js';
import { pollUntil } from '../support/pollUntil.js';

let harness: HttpHarness;
beforeEach(async () => {
  harness = await startHttpHarness();
});
afterEach(async () => {
  await harness.close();
});

describe('JSON bodies of every accepted type are parsed, never read as empty (review 5)', () => {
  const wanted = { messages: { limit_period: 'PerHour', limit_value: 50 } };

  for (const contentType of [
    'application/merge-patch+json',
    'application/json; foo=bar',
    'application/vnd.example+json',
    'application/json; charset=utf-8',
  ]) {
    it(`PUT /settings with ${contentType} applies the body or refuses it with 415`, async () => {
      await harness.request('/settings', { method: 'PATCH', json: { logs: { lifetime_days: 7 } } });
      const response = await harness.request('/settings', {
        method: 'PUT',
        raw: JSON.stringify({ ...wanted, logs: { lifetime_days: 7 } }),
        headers: { 'Content-Type': contentType },
      });
      if (response.status === 415) {
        expect(harness.settings.current().logs.lifetime_days).toBe(7);
        return;
      }
      expect(response.status).toBe(200);
      expect(harness.settings.current().messages.limit_value).toBe(50);
      expect(harness.settings.current().logs.lifetime_days).toBe(7);
    });
  }

  it('refuses a body whose type the parser does not read with 415, naming the body', async () => {
    const response = await harness.request('/settings', {
      method: 'PUT',
      raw: 'messages[limit_value]=50',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
  });
});

describe('an attacker throttled on loopback locks out nobody else (reviews 2 and 3)', () => {
  it('keeps valid tokens and a client that logged in working at once after ten wrong passwords', async () => {
    expect((await harness.request('/messages')).status).toBe(200);
    const bearer = await harness.bearer(['messages:list']);
    const wrong = `Basic ${Buffer.from('admin:wrong horse').toString('base64')}`;
    // Past the harness's five, each wrong one waits its paced turn.
    for (let attempt = 0; attempt < 10; attempt++) {
      const refused = harness.request('/messages', { authorization: wrong });
      await harness.clock.advance(1_000);
      expect((await refused).status).toBe(401);
    }
    for (let attempt = 0; attempt < 10; attempt++) {
      await harness.request('/messages', { authorization: 'Bearer garbage.garbage.garbage' });
    }
    expect((await harness.request('/messages', { authorization: bearer })).status).toBe(200);
    expect((await harness.request('/messages')).status).toBe(200);
  });

  it('lets the right password in after a fresh start and ten wrong ones, from any local program (issue 46)', async () => {
    // Nothing has logged in since the start, so no remembered pair lets the right one through.
    const wrong = `Basic ${Buffer.from('admin:wrong horse').toString('base64')}`;
    const guesser = { 'User-Agent': 'curl/8.5.0' };
    for (let attempt = 0; attempt < 10; attempt++) {
      const refused = harness.request('/messages', { authorization: wrong, headers: guesser });
      await harness.clock.advance(1_000);
      expect((await refused).status).toBe(401);
    }
    const homeAssistant = harness.request('/messages', {
      headers: { 'User-Agent': 'HomeAssistant/2026.1 aiohttp/3.11' },
    });
    await harness.clock.advance(1_000);
    expect((await homeAssistant).status).toBe(200);
  });
});

/** An open GET /gateway/v1/events: what arrived so far and whether the server ended it. */
async function openEventStream(authorization: string) {
  const state = { text: '', ended: false };
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: harness.port,
        path: '/gateway/v1/events',
        headers: { Authorization: authorization },
      },
      resolve,
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    state.text += chunk;
  });
  const finished = () => {
    state.ended = true;
  };
  response.on('end', finished);
  response.on('close', finished);
  response.on('error', finished);
  await pollUntil(() => state.text.includes(': connected'), { what: 'the stream to open' });
  return { status: response.statusCode, state, close: () => response.destroy() };
}

const logEvent = (message: string): LogRecord => ({
  priority: 'INFO',
  module: 'test',
  message,
  createdAt: 0,
});

describe('the event stream ends with its credentials and drops slow readers (review 4)', () => {
  it('ends when its token expires', async () => {
    const pair = await harness.tokens.issue(['all:any'], 60);
    const stream = await openEventStream(`Bearer ${pair.accessToken}`);
    expect(stream.status).toBe(200);
    await harness.clock.advance(61_000);
    await pollUntil(() => stream.state.ended, { what: 'the stream to end at expiry' });
    harness.events.emit('log', logEvent('after expiry'));
    expect(stream.state.text).not.toContain('after expiry');
  });

  it('ends when its token is revoked', async () => {
    const pair = await harness.tokens.issue(['all:any']);
    const stream = await openEventStream(`Bearer ${pair.accessToken}`);
    harness.events.emit('log', logEvent('before revocation'));
    await pollUntil(() => stream.state.text.includes('before revocation'));
    await harness.tokens.revoke(pair.id);
    await pollUntil(() => stream.state.ended, { what: 'the stream to end at revocation' });
    harness.events.emit('log', logEvent('after revocation'));
    expect(stream.state.text).not.toContain('after revocation');
  });

  it('ends a Basic stream when the password changes', async () => {
    const stream = await openEventStream(basicAuth);
    await harness.credentials.change('admin', 'another long password');
    await pollUntil(() => stream.state.ended, { what: 'the stream to end at the password change' });
  });
});

describe('a client that stops reading the event stream is dropped (review 4)', () => {
  it('closes the stream once its unsent events pass the bound, instead of buffering them all', async () => {
    await harness.close();
    const records: LogRecord[] = [];
    harness = await startHttpHarness({
      logger: createLogger({ level: 'WARN', sinks: [(record) => records.push(record)] }),
    });
    const socket = connect(harness.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /gateway/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basicAuth}\r\n\r\n`);
    await new Promise((resolve) => socket.once('data', resolve));
    socket.pause();
    const long = 'x'.repeat(100_000);
    for (let index = 0; index < 300; index++) {
      harness.events.emit('log', logEvent(`${index} ${long}`));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await pollUntil(() => records.some((record) => /slow event stream/.test(record.message)), {
      what: 'the slow client to be dropped',
    });
    socket.destroy();
  });
});

describe('state-changing routes refuse what a foreign page can send (review 6)', () => {
  it('refuses a form post to a route without a body, such as a webhook test, with 415', async () => {
    for (const contentType of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
    ]) {
      const response = await harness.request('/gateway/v1/webhooks/any-id/test', {
        method: 'POST',
        raw: '',
        headers: { 'Content-Type': contentType },
      });
      expect(response.status).toBe(415);
    }
  });

  it('refuses a cross-site Origin or Sec-Fetch-Site on every state-changing method with 403', async () => {
    const message = { textMessage: { text: 'hi' }, phoneNumbers: ['+15551234567'] };
    const crossSite: Array<Record<string, string>> = [
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { Origin: `http://127.0.0.1:${harness.port + 1}` },
      { 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const posted = await harness.request('/messages', { method: 'POST', json: message, headers });
      expect(posted.status).toBe(403);
      const deleted = await harness.request('/webhooks/any-id', { method: 'DELETE', headers });
      expect(deleted.status).toBe(403);
    }
  });

  it('lets the same origin and clients that send no Origin through', async () => {
    const message = { textMessage: { text: 'hi' }, phoneNumbers: ['+15551234567'] };
    const sameOrigin = await harness.request('/messages', {
      method: 'POST',
      json: message,
      headers: { Origin: `http://127.0.0.1:${harness.port}`, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(202);
    expect((await harness.request('/messages', { method: 'POST', json: message })).status).toBe(202);
  });
});

describe('smaller findings (review 10)', () => {
  it('sends X-Content-Type-Options: nosniff on every answer, errors and the docs included', async () => {
    for (const [path, authorization] of [
      ['/messages', undefined],
      ['/messages', null],
      ['/docs', null],
      ['/docs/openapi.json', null],
      ['/no/such/path', null],
    ] as const) {
      const response = await harness.request(path, { authorization });
      expect({ path, nosniff: response.headers['x-content-type-options'] }).toEqual({
        path,
        nosniff: 'nosniff',
      });
    }
  });

  it('marks token responses and every authenticated answer Cache-Control: no-store', async () => {
    const token = await harness.request('/auth/token', {
      method: 'POST',
      json: { scopes: ['messages:send'] },
    });
    expect(token.status).toBe(201);
    expect(token.headers['cache-control']).toBe('no-store');
    for (const path of ['/messages', '/settings', '/devices', '/logs']) {
      expect({ path, cache: (await harness.request(path)).headers['cache-control'] }).toEqual({
        path,
        cache: 'no-store',
      });
    }
  });

  it('serves /docs with a Content-Security-Policy that allows only its own script', async () => {
    const response = await harness.request('/docs', { authorization: null });
    const policy = String(response.headers['content-security-policy'] ?? '');
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).toMatch(/frame-ancestors 'none'/);
    // The page still renders under it: its script ran and listed the operations.
    const browser = await launchBrowser();
    try {
      const page = await openTab(browser);
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto(`${harness.baseUrl}/docs`);
      await page.getByText('/messages').first().waitFor();
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('bounds a phone number passed through with skipPhoneValidation', async () => {
    const response = await harness.request('/messages?skipPhoneValidation=true', {
      method: 'POST',
      json: { textMessage: { text: 'hi' }, phoneNumbers: ['1'.repeat(200_000)] },
    });
    expect(response.status).toBe(400);
    expect(response.text).toContain('phoneNumbers');
  });

  it('refuses a revocation id that is no token id, however long, without keeping it', async () => {
    for (const jti of ['j'.repeat(5_000), 'short', '%00']) {
      const response = await harness.request(`/auth/token/${jti}`, { method: 'DELETE' });
      expect(response.status).toBe(400);
    }
  });
});
