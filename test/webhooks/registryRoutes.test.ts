import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

describe('webhook routes on the real HTTP app', () => {
  let gateway: HttpHarness;

  beforeEach(async () => {
    gateway = await startHttpHarness();
  });

  afterEach(async () => {
    await gateway.close();
  });

  const register = (json: unknown, path = '/webhooks', authorization?: string) =>
    gateway.request(path, { method: 'POST', json, ...(authorization ? { authorization } : {}) });

  it.each(['/webhooks', '/webhook', '/3rdparty/v1/webhooks', '/api/3rdparty/v1/webhook'])(
    'registers a webhook at %s (201 with the record) and lists it',
    async (path) => {
      const created = await register(
        { id: 'hook-1', url: 'https://example.com/sms', event: 'sms:received' },
        path,
      );
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: 'hook-1', url: 'https://example.com/sms', event: 'sms:received' });

      const listed = await gateway.request(path);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([created.body]);
    },
  );

  it('generates an id when none is sent and omits a null deviceId', async () => {
    const created = await register({ url: 'http://127.0.0.1:9000/in', event: 'sms:sent', deviceId: null });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^.{21}$/),
      url: 'http://127.0.0.1:9000/in',
      event: 'sms:sent',
    });
  });

  it('replaces the webhook registered under the same id', async () => {
    await register({ id: 'hook-1', url: 'https://example.com/old', event: 'sms:received' });
    await register({
      id: 'hook-1',
      url: 'https://example.com/new',
      event: 'sms:delivered',
      deviceId: 'modem-1',
    });

    expect((await gateway.request('/webhooks')).body).toEqual([
      { id: 'hook-1', url: 'https://example.com/new', event: 'sms:delivered', deviceId: 'modem-1' },
    ]);
  });

  it('removes a webhook with DELETE (204) and answers 204 again for an id no longer registered', async () => {
    await register({ id: 'hook-1', url: 'https://example.com/sms', event: 'sms:received' });

    const removed = await gateway.request('/webhooks/hook-1', { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await gateway.request('/webhook/hook-1', { method: 'DELETE' })).status).toBe(204);
    expect((await gateway.request('/webhooks')).body).toEqual([]);
  });

  it.each([
    ['plain http to a LAN address', { url: 'http://192.168.0.20/in', event: 'sms:received' }, /^url/],
    ['a URL that is not absolute', { url: 'example.com/in', event: 'sms:received' }, /^url/],
    ['an unknown event', { url: 'https://example.com/in', event: 'sms:exploded' }, /^event/],
    ['a missing url', { event: 'sms:received' }, /^url/],
  ])('answers 400 naming the field for %s and stores nothing', async (_name, json, field) => {
    const response = await register(json);
    expect(response.status).toBe(400);
    expect((response.body as { message: string }).message).toMatch(field);
    expect((await gateway.request('/webhooks')).body).toEqual([]);
  });

  it('checks the scope of each route: list, write and delete are separate', async () => {
    const lister = await gateway.bearer(['webhooks:list']);
    const writer = await gateway.bearer(['webhooks:write']);

    expect((await gateway.request('/webhooks', { authorization: lister })).status).toBe(200);
    expect(
      (await register({ url: 'https://example.com/in', event: 'sms:received' }, '/webhooks', lister)).status,
    ).toBe(403);
    expect(
      (await register({ url: 'https://example.com/in', event: 'sms:received' }, '/webhooks', writer)).status,
    ).toBe(201);
    expect((await gateway.request('/webhooks/x', { method: 'DELETE', authorization: writer })).status).toBe(
      403,
    );
    expect((await gateway.request('/webhooks', { authorization: null })).status).toBe(401);
  });
});
