import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, startGatewayUnderTest } from '../compat/support/gatewayUnderTest.js';
import { basicAuthFor } from '../support/httpHarness.js';

/**
 * Issue 39, each app's inbox: GET /inbox and GET /inbox/{id} give an app's credentials only the
 * received messages its incoming rule hears (as its webhooks do: incomingReplies.test.ts); staff
 * see every one. On the whole gateway (built-in simulated modem, real storage, the real server)
 * on a ManualClock.
 */
let gateway: GatewayUnderTest | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const shop = { authorization: basicAuthFor('shop', 'shop-secret-1'), customer: '+15550001111' };
const clinic = { authorization: basicAuthFor('clinic', 'clinic-secret-1') };

interface InboxItem {
  id: string;
  sender: string;
  contentPreview: string;
}

async function inboxOf(
  under: GatewayUnderTest,
  authorization?: string,
): Promise<{ total: string | null; texts: string[]; ids: string[] }> {
  const listed = await under.request('GET', '/inbox', authorization === undefined ? {} : { authorization });
  expect(listed.status).toBe(200);
  const items = listed.body as InboxItem[];
  return {
    total: listed.headers.get('x-total-count'),
    texts: items.map((item) => item.contentPreview).sort(),
    ids: items.map((item) => item.id),
  };
}

describe("an app's inbox", () => {
  it('lists and reads only the received messages its incoming rule hears', async () => {
    const under = await startGatewayUnderTest();
    gateway = under;
    const deviceId = (await under.receiveSms('+15550007777', 'Before any app')).deviceId;

    const addedShop = await under.request('POST', '/gateway/v1/apps', {
      json: { name: 'shop', password: 'shop-secret-1', incoming: { mode: 'replies' } },
    });
    expect(addedShop.status).toBe(201);
    const addedClinic = await under.request('POST', '/gateway/v1/apps', {
      json: {
        name: 'clinic',
        password: 'clinic-secret-1',
        incoming: { mode: 'devices', deviceIds: ['elsewhere'] },
      },
    });
    expect(addedClinic.status).toBe(201);
    const clinicId = (addedClinic.body as { id: string }).id;

    const sent = await under.request('POST', '/message', {
      json: { textMessage: { text: 'Your order shipped' }, phoneNumbers: [shop.customer] },
      authorization: shop.authorization,
    });
    expect(sent.status).toBe(202);
    const sentId = (sent.body as { id: string }).id;
    await under.runUntil(async () => {
      const state = (await under.request('GET', `/messages/${sentId}`, { authorization: shop.authorization }))
        .body as { state: string };
      return state.state !== 'Pending' && state.state !== 'Processed';
    }, "the shop's message sent");

    const reply = await under.receiveSms(shop.customer, 'Thanks, shop');
    await under.receiveSms('+15550009999', 'Who is this?');

    // The shop hears the reply to its message only; the clinic, nothing from this modem.
    expect(await inboxOf(under, shop.authorization)).toMatchObject({ total: '1', texts: ['Thanks, shop'] });
    expect(await inboxOf(under, clinic.authorization)).toMatchObject({ total: '0', texts: [] });
    // Staff (the owner's login) see everything, as before apps existed.
    expect(await inboxOf(under)).toMatchObject({
      total: '3',
      texts: ['Before any app', 'Thanks, shop', 'Who is this?'],
    });

    expect(
      (await under.request('GET', `/inbox/${reply.id}`, { authorization: shop.authorization })).status,
    ).toBe(200);
    const unheard = await under.request('GET', `/inbox/${reply.id}`, { authorization: clinic.authorization });
    expect(unheard.status).toBe(404);
    expect(unheard.body).toMatchObject({ field: 'id' });

    // The clinic's rule now names this modem: its inbox has every message that arrived on it.
    const changed = await under.request('PATCH', `/gateway/v1/apps/${clinicId}`, {
      json: { incoming: { mode: 'devices', deviceIds: [deviceId] } },
    });
    expect(changed.status).toBe(200);
    expect((await inboxOf(under, clinic.authorization)).total).toBe('3');
  });

  it('replays a reply to the app it replied to when it arrived, whoever wrote to the number since', async () => {
    const under = await startGatewayUnderTest();
    gateway = under;
    const hookOf: Record<string, string> = {};
    const sendTo = async (authorization: string, phoneNumber: string) => {
      const sent = await under.request('POST', '/message', {
        json: { textMessage: { text: 'Hello' }, phoneNumbers: [phoneNumber] },
        authorization,
      });
      expect(sent.status).toBe(202);
      const id = (sent.body as { id: string }).id;
      await under.runUntil(async () => {
        const state = (await under.request('GET', `/messages/${id}`, { authorization })).body as {
          state: string;
        };
        return state.state !== 'Pending' && state.state !== 'Processed';
      }, `the message to ${phoneNumber} sent`);
    };
    for (const [name, app] of Object.entries({ shop, clinic })) {
      const added = await under.request('POST', '/gateway/v1/apps', {
        json: { name, password: `${name}-secret-1`, incoming: { mode: 'replies' } },
      });
      expect(added.status).toBe(201);
      const hook = await under.request('POST', '/webhooks', {
        json: { url: `https://hooks.example.com/${name}`, event: 'sms:received' },
        authorization: app.authorization,
      });
      expect(hook.status).toBe(201);
      hookOf[name] = (hook.body as { id: string }).id;
    }
    const deliveriesTo = async (name: string) =>
      (
        (await under.request('GET', `/gateway/v1/webhooks/deliveries?webhookId=${hookOf[name]}`))
          .body as unknown[]
      ).length;

    await sendTo(shop.authorization, shop.customer);
    await under.receiveSms(shop.customer, 'Thanks, shop');
    await under.runUntil(async () => (await deliveriesTo('shop')) === 1, "the reply's delivery to the shop");
    // The clinic writes to the same number later: the reply stays the shop's.
    await sendTo(clinic.authorization, shop.customer);
    expect(await inboxOf(under, clinic.authorization)).toMatchObject({ total: '0' });

    const exported = await under.request('POST', '/messages/inbox/export', {
      json: {
        since: new Date(under.clock.now() - 3_600_000).toISOString(),
        until: new Date(under.clock.now() + 1000).toISOString(),
      },
    });
    expect(exported.status).toBe(202);
    await under.runUntil(async () => (await deliveriesTo('shop')) === 2, 'the replay delivered to the shop');
    expect(await deliveriesTo('clinic')).toBe(0);
  });
});
