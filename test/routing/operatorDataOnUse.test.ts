import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayUnderTest, startGatewayUnderTest } from '../compat/support/gatewayUnderTest.js';

/**
 * Issue 39, rules by operator cost nothing until used: start-up time and memory are benchmarked,
 * so a gateway whose rules match only prefixes never loads the BSON decoder nor reads the
 * operator data; the first operator rule does (on the whole gateway: real storage, the real
 * server on loopback, one built-in simulated modem).
 */
let gateway: GatewayUnderTest | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const bsonLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((path) =>
    /[\\/]node_modules[\\/]bson[\\/]/.test(path),
  );

describe('the operator data', () => {
  it('is read at the first operator rule, not at start-up nor for prefix rules', async () => {
    const under = await startGatewayUnderTest();
    gateway = under;
    const devices = (await under.request('GET', '/devices')).body as { id: string }[];
    const modem = devices[0]?.id as string;
    const prefixOnly = await under.request('PUT', '/gateway/v1/routing', {
      json: { rules: [{ prefix: '+49', deviceIds: [modem] }] },
    });
    expect(prefixOnly.status).toBe(200);
    const sent = await under.request('POST', '/messages', {
      json: { textMessage: { text: 'by prefix' }, phoneNumbers: ['+4917212345678'] },
    });
    const id = (sent.body as { id: string }).id;
    await under.runUntil(
      async () =>
        ((await under.request('GET', `/messages/${id}`)).body as { state: string }).state !== 'Pending',
      'the message routed by prefix sent',
    );
    expect(bsonLoaded()).toBe(false);

    const byOperator = await under.request('PUT', '/gateway/v1/routing', {
      json: { rules: [{ operator: 'Vodafone', country: 'DE', deviceIds: [modem] }] },
    });
    expect(byOperator.status).toBe(200);
    expect(bsonLoaded()).toBe(true);
  });
});
