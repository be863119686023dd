import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, startGatewayUnderTest } from '../compat/support/gatewayUnderTest.js';
import { basicAuthFor } from '../support/httpHarness.js';

/**
 * Issue 39, apps as tenants: the spec's API keeps working for each app, token revocation
 * included (`DELETE /auth/token/{jti}`, scope `tokens:manage`). An app manages only its own
 * tokens; the owner, everyone's. On the whole gateway with the real server.
 */
let gateway: GatewayUnderTest | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const shop = basicAuthFor('shop', 'shop-secret-1');
const clinic = basicAuthFor('clinic', 'clinic-secret-1');

async function addApp(under: GatewayUnderTest, name: string, password: string): Promise<void> {
  const added = await under.request('POST', '/gateway/v1/apps', { json: { name, password } });
  expect(added.status).toBe(201);
}

async function tokenFor(
  under: GatewayUnderTest,
  authorization?: string,
): Promise<{ id: string; bearer: string }> {
  const issued = await under.request('POST', '/auth/token', {
    json: { scopes: ['messages:list', 'tokens:manage'] },
    ...(authorization === undefined ? {} : { authorization }),
  });
  expect(issued.status).toBe(201);
  const body = issued.body as { id: string; access_token: string };
  return { id: body.id, bearer: `Bearer ${body.access_token}` };
}

async function revoke(under: GatewayUnderTest, id: string, authorization?: string): Promise<number> {
  const answer = await under.request(
    'DELETE',
    `/auth/token/${id}`,
    authorization === undefined ? {} : { authorization },
  );
  return answer.status;
}

async function works(under: GatewayUnderTest, bearer: string): Promise<boolean> {
  const listed = await under.request('GET', '/messages', { authorization: bearer });
  return listed.status === 200;
}

describe("an app's tokens", () => {
  it('revokes its own tokens only', async () => {
    const under = await startGatewayUnderTest();
    gateway = under;
    await addApp(under, 'shop', 'shop-secret-1');
    await addApp(under, 'clinic', 'clinic-secret-1');
    const shopFirst = await tokenFor(under, shop);
    const shopSecond = await tokenFor(under, shop);
    const clinicToken = await tokenFor(under, clinic);
    const ownerToken = await tokenFor(under);

    // Another's token id is left alone, as an unknown one would be.
    expect(await revoke(under, clinicToken.id, shop)).toBe(204);
    expect(await works(under, clinicToken.bearer)).toBe(true);
    // Its own goes, asked with another token of its own.
    expect(await revoke(under, shopFirst.id, shopSecond.bearer)).toBe(204);
    expect(await works(under, shopFirst.bearer)).toBe(false);

    expect(await works(under, shopSecond.bearer)).toBe(true);
    expect(await works(under, ownerToken.bearer)).toBe(true);
    // Our own token list is not the spec's: an app's credentials do not open it.
    expect((await under.request('GET', '/gateway/v1/tokens', { authorization: shop })).status).toBe(403);

    // The owner revokes anyone's.
    expect(await revoke(under, shopSecond.id)).toBe(204);
    expect(await works(under, shopSecond.bearer)).toBe(false);
  });
});
