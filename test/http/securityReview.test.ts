/**
 * The HTTP findings of the outside security review (issue 12), each against the real Koa app on
 * a loopback port. RELIABILITY.md, "Security review", lists which check lives where.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

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
  it('keeps valid tokens and a client that logged in working after ten wrong passwords', async () => {
    expect((await harness.request('/messages')).status).toBe(200);
    const bearer = await harness.bearer(['messages:list']);
    const wrong = `Basic ${Buffer.from('admin:wrong horse').toString('base64')}`;
    for (let attempt = 0; attempt < 10; attempt++) {
      await harness.request('/messages', { authorization: wrong });
    }
    for (let attempt = 0; attempt < 10; attempt++) {
      await harness.request('/messages', { authorization: 'Bearer garbage.garbage.garbage' });
    }
    expect((await harness.request('/messages', { authorization: wrong })).status).toBe(429);
    expect((await harness.request('/messages', { authorization: bearer })).status).toBe(200);
    expect((await harness.request('/messages')).status).toBe(200);
  });
});
