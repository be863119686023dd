import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, startGatewayUnderTest } from '../compat/support/gatewayUnderTest.js';
import { basicAuthFor } from '../support/httpHarness.js';

/**
 * Issue 39, an app's incoming rule "replies": an SMS reaches the webhooks of the app whose
 * message its sender received last, and no other app's. On the whole gateway (built-in
 * simulated modem, real storage, the real server) on a ManualClock. No webhook here can be
 * reached, so each delivery the gateway made is pending or failed: their sum counts them.
 */
let gateway: GatewayUnderTest | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const apps = {
  shop: { authorization: basicAuthFor('shop', 'shop-secret-1'), customer: '+15550001111' },
  clinic: { authorization: basicAuthFor('clinic', 'clinic-secret-1'), customer: '+15550002222' },
};

async function deliveriesMade(under: GatewayUnderTest): Promise<number> {
  const status = (await under.request('GET', '/gateway/v1/status')).body as {
    webhooks: { pending: number; failedLastHour: number };
  };
  return status.webhooks.pending + status.webhooks.failedLastHour;
}

describe('the incoming rule "replies"', () => {
  it("sends a reply to the webhooks of the app that last wrote to its sender, and nobody's else", async () => {
    const under = await startGatewayUnderTest();
    gateway = under;
    const hookOf: Record<string, string> = {};
    for (const [name, app] of Object.entries(apps)) {
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
      const sent = await under.request('POST', '/message', {
        json: { textMessage: { text: `from ${name}` }, phoneNumbers: [app.customer] },
        authorization: app.authorization,
      });
      expect(sent.status).toBe(202);
      const id = (sent.body as { id: string }).id;
      await under.runUntil(async () => {
        const state = (await under.request('GET', `/messages/${id}`, { authorization: app.authorization }))
          .body as { state: string };
        return state.state !== 'Pending' && state.state !== 'Processed';
      }, `the message of ${name} sent`);
    }
    expect(await deliveriesMade(under)).toBe(0);

    await under.receiveSms(apps.shop.customer, 'Thanks, shop');
    await under.runUntil(
      async () => (await deliveriesMade(under)) === 1,
      "one delivery, to the shop's webhook",
    );
    await under.receiveSms(apps.clinic.customer, 'See you Tuesday');
    await under.runUntil(async () => (await deliveriesMade(under)) === 2, "one more, to the clinic's");
    // A number neither app wrote to reaches neither.
    await under.receiveSms('+15550009999', 'Who is this?');
    await under.clock.advance(1000);
    expect(await deliveriesMade(under)).toBe(2);

    // The clinic writes to the shop's customer: the next reply is the clinic's.
    const taken = await under.request('POST', '/message', {
      json: { textMessage: { text: 'Your appointment' }, phoneNumbers: [apps.shop.customer] },
      authorization: apps.clinic.authorization,
    });
    expect(taken.status).toBe(202);
    await under.runUntil(async () => {
      const state = (
        await under.request('GET', `/messages/${(taken.body as { id: string }).id}`, {
          authorization: apps.clinic.authorization,
        })
      ).body as { state: string };
      return state.state !== 'Pending' && state.state !== 'Processed';
    }, "the clinic's message to the shop's customer sent");
    const lastFailure = async () =>
      (
        (await under.request('GET', '/gateway/v1/status')).body as {
          webhooks: { lastFailure?: { webhookId: string } };
        }
      ).webhooks.lastFailure?.webhookId;
    await under.receiveSms(apps.shop.customer, 'Which appointment?');
    await under.runUntil(async () => (await deliveriesMade(under)) === 3, 'a third delivery');
    await under.runUntil(
      async () => (await lastFailure()) === hookOf.clinic,
      "the third delivery is the clinic's webhook's",
    );
  });
});
