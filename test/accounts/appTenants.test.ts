import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basicAuthFor, type HttpHarness, startHttpHarness } from '../support/httpHarness.js';

/**
 * Issue 39, apps as tenants: each app has its own Basic login and tokens for the spec's API,
 * sees only its own messages, and is refused with 429 and Retry-After once over its quota
 * while another app still sends.
 */
let harness: HttpHarness;

beforeEach(async () => {
  harness = await startHttpHarness();
});
afterEach(async () => {
  await harness.close();
});

const shop = basicAuthFor('shop', 'shop-secret-1');
const clinic = basicAuthFor('clinic', 'clinic-secret-1');
const message = (text: string) => ({ textMessage: { text }, phoneNumbers: ['+15551234567'] });

async function addApp(name: string, password: string, quota?: object): Promise<string> {
  const response = await harness.request('/gateway/v1/apps', {
    method: 'POST',
    json: { name, password, ...(quota ? { quota } : {}) },
  });
  expect(response.status).toBe(201);
  return (response.body as { id: string }).id;
}

const send = (authorization: string, text: string, path = '/messages') =>
  harness.request(path, { method: 'POST', json: message(text), authorization });

describe('apps as tenants', () => {
  it("opens none of our extensions to an app's credentials, though it holds their scope", async () => {
    // A stand-in for /gateway/v1/status, the desk's replies, anyone's scheduled messages…
    await harness.close();
    harness = await startHttpHarness({
      extensions: [
        (api) =>
          api.route({
            method: 'get',
            path: '/gateway/v1/whole-gateway',
            summary: 'A read of the whole gateway',
            tag: 'Test',
            access: { scope: 'messages:list' },
            responses: { 200: { description: 'ok' } },
            handle: async () => ({ status: 200, body: { ok: true } }),
          }),
      ],
    });
    await addApp('shop', 'shop-secret-1');
    expect((await harness.request('/gateway/v1/whole-gateway')).status).toBe(200);
    const refused = await harness.request('/gateway/v1/whole-gateway', { authorization: shop });
    expect(refused.status).toBe(403);
    expect((refused.body as { message: string }).message).toContain("spec's routes only");
    expect((await harness.request('/messages', { authorization: shop })).status).toBe(200);
  });

  it('lets each app use the spec API with its own login and token, and see only its own messages', async () => {
    await addApp('shop', 'shop-secret-1');
    await addApp('clinic', 'clinic-secret-1');
    const fromShop = await send(shop, 'Your order shipped', '/3rdparty/v1/message');
    expect(fromShop.status).toBe(202);
    const shopId = (fromShop.body as { id: string }).id;
    const issued = await harness.request('/auth/token', {
      method: 'POST',
      json: { scopes: ['messages:send', 'messages:list', 'messages:read'] },
      authorization: clinic,
    });
    expect(issued.status).toBe(201);
    const clinicToken = `Bearer ${(issued.body as { access_token: string }).access_token}`;
    const fromClinic = await send(clinicToken, 'Your appointment is at 9');
    expect(fromClinic.status).toBe(202);
    const clinicId = (fromClinic.body as { id: string }).id;

    const shopList = (await harness.request('/messages', { authorization: shop })).body as { id: string }[];
    expect(shopList.map((entry) => entry.id)).toEqual([shopId]);
    const clinicList = (await harness.request('/messages', { authorization: clinicToken })).body as {
      id: string;
    }[];
    expect(clinicList.map((entry) => entry.id)).toEqual([clinicId]);
    expect((await harness.request(`/messages/${clinicId}`, { authorization: shop })).status).toBe(404);
    expect(
      (await harness.request(`/messages/${clinicId}`, { method: 'DELETE', authorization: shop })).status,
    ).toBe(404);
    // The owner login, the default app, sees everything, as before apps existed.
    const all = (await harness.request('/messages')).body as { id: string }[];
    expect(all.map((entry) => entry.id).sort()).toEqual([shopId, clinicId].sort());
  });

  it("keeps each app's webhooks to itself: unseen, not replaceable and not removable by another app", async () => {
    await addApp('shop', 'shop-secret-1');
    await addApp('clinic', 'clinic-secret-1');
    const hook = { id: 'orders', url: 'https://example.com/shop-hook', event: 'sms:delivered' };
    const registered = await harness.request('/webhooks', {
      method: 'POST',
      json: hook,
      authorization: shop,
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({ ...hook });
    expect((await harness.request('/webhooks', { authorization: clinic })).body).toEqual([]);
    const replaced = await harness.request('/webhooks', {
      method: 'POST',
      json: { ...hook, url: 'https://example.com/clinic-hook' },
      authorization: clinic,
    });
    expect(replaced.status).toBe(409);
    expect(
      (await harness.request('/webhooks/orders', { method: 'DELETE', authorization: clinic })).status,
    ).toBe(204);
    expect((await harness.request('/webhooks', { authorization: shop })).body).toEqual([hook]);
    // The owner login, the default app, sees every app's.
    expect((await harness.request('/webhooks')).body).toEqual([hook]);
  });

  it('counts usage per day, per app and per person, and exports it as CSV', async () => {
    await addApp('shop', 'shop-secret-1');
    const person = await harness.request('/gateway/v1/users', {
      method: 'POST',
      json: { name: 'olga', password: 'operator-pass-1', role: 'operator' },
    });
    expect(person.status).toBe(201);
    await send(shop, 'one');
    await send(shop, 'two');
    await send(basicAuthFor('olga', 'operator-pass-1'), 'three');
    await send(basicAuthFor('admin', 'correct horse battery'), 'four');
    const usage = await harness.request('/gateway/v1/usage');
    expect(usage.status).toBe(200);
    expect(usage.body).toEqual([
      { day: '2026-01-01', senderId: 'owner', senderName: 'admin', messages: 1, parts: 0, failed: 0 },
      expect.objectContaining({ senderName: 'olga', messages: 1 }),
      expect.objectContaining({ senderName: 'shop', messages: 2, failed: 0 }),
    ]);
    const csv = await harness.request('/gateway/v1/usage?format=csv');
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text.split('\r\n')[0]).toBe('day,senderId,senderName,messages,parts,failed');
    expect(csv.text).toContain(',shop,2,0,0');
    // An app reads no one's usage.
    expect((await harness.request('/gateway/v1/usage', { authorization: shop })).status).toBe(403);
  });

  it("keeps an app out of the gateway's running: people, settings, other apps", async () => {
    await addApp('shop', 'shop-secret-1');
    expect((await harness.request('/settings', { authorization: shop })).status).toBe(403);
    expect((await harness.request('/gateway/v1/apps', { authorization: shop })).status).toBe(403);
    expect((await harness.request('/gateway/v1/users', { authorization: shop })).status).toBe(403);
    const me = await harness.request('/gateway/v1/me', { authorization: shop });
    expect(me.body).toMatchObject({ name: 'shop', role: 'app' });
  });

  it('answers 429 with Retry-After once an app has used its daily quota, while another app still sends', async () => {
    // The harness clock stands at 2026-01-01 12:00 UTC; the day resets at midnight in UTC.
    await addApp('shop', 'shop-secret-1', { perDay: 2, resetAt: '00:00', timeZone: 'UTC' });
    await addApp('clinic', 'clinic-secret-1');
    expect((await send(shop, 'one')).status).toBe(202);
    expect((await send(shop, 'two')).status).toBe(202);
    const over = await send(shop, 'three');
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBe(String(12 * 3600));
    expect((over.body as { message: string }).message).toMatch(
      /^quota: .*2 SMS per day.*2026-01-02T00:00:00/,
    );
    expect((await send(clinic, 'still sending')).status).toBe(202);
    // A refused request does not count: after the reset the app has its whole quota again.
    await harness.clock.advance(12 * 3600 * 1000);
    expect((await send(shop, 'next day')).status).toBe(202);
  });

  it('counts the quota per recipient: one call to three numbers does not fit a quota of two', async () => {
    await addApp('shop', 'shop-secret-1', { perDay: 2, resetAt: '00:00', timeZone: 'UTC' });
    const three = await harness.request('/messages', {
      method: 'POST',
      json: { textMessage: { text: 'x' }, phoneNumbers: ['+15550000001', '+15550000002', '+15550000003'] },
      authorization: shop,
    });
    expect(three.status).toBe(429);
    expect((three.body as { message: string }).message).toMatch(/2 are left and this asks for 3/);
    const two = await harness.request('/messages', {
      method: 'POST',
      json: { textMessage: { text: 'x' }, phoneNumbers: ['+15550000001', '+15550000002'] },
      authorization: shop,
    });
    expect(two.status).toBe(202);
    expect((await send(shop, 'one more')).status).toBe(429);
  });

  it('answers 404 for a person or app named by an inherited key, and the lists stay whole', async () => {
    const edits: [string, object][] = [
      ['/gateway/v1/users/__proto__', { role: 'viewer' }],
      ['/gateway/v1/users/constructor', { role: 'viewer' }],
      ['/gateway/v1/apps/__proto__', { quota: null }],
      ['/gateway/v1/apps/toString', { quota: null }],
    ];
    for (const [path, json] of edits) {
      expect((await harness.request(path, { method: 'PATCH', json })).status, path).toBe(404);
      expect((await harness.request(path, { method: 'DELETE' })).status, path).toBe(404);
    }
    expect((await harness.request('/gateway/v1/users')).status).toBe(200);
    expect((await harness.request('/gateway/v1/apps')).status).toBe(200);
  });

  it('gives a place back when the message is refused for another reason', async () => {
    await addApp('shop', 'shop-secret-1', { perDay: 1 });
    const invalid = await harness.request('/messages', {
      method: 'POST',
      json: { textMessage: { text: 'x' }, phoneNumbers: ['not a number'] },
      authorization: shop,
    });
    expect(invalid.status).toBe(400);
    expect((await send(shop, 'the one allowed')).status).toBe(202);
  });

  it('refuses a name a person has (409) and an unknown time zone (400)', async () => {
    const taken = await harness.request('/gateway/v1/apps', {
      method: 'POST',
      json: { name: 'admin', password: 'long-enough-1' },
    });
    expect(taken.status).toBe(409);
    const zone = await harness.request('/gateway/v1/apps', {
      method: 'POST',
      json: { name: 'shop', password: 'long-enough-1', quota: { perDay: 5, timeZone: 'Mars/Olympus' } },
    });
    expect(zone.status).toBe(400);
    expect(JSON.stringify(zone.body)).toContain('timeZone');
  });
});
