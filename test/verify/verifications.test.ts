import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFileName } from '../../server/store/sqlite/database.js';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import { type GatewayUnderTest, startGatewayUnderTest } from '../compat/support/gatewayUnderTest.js';

/**
 * Verification codes (issue 52, docs/verification.md) end to end: an app sends a code, the
 * simulated modem puts it on the air, the app checks it. The API shows the code nowhere and the
 * verification keeps only its hash; wrong guesses, resends and time are limited; the SMS counts
 * on the app's quota.
 */
let under: GatewayUnderTest | undefined;

afterEach(async () => {
  await under?.stop();
  under = undefined;
});

const shop = { name: 'shop', password: 'shop-secret-1' };
const shopBasic = `Basic ${Buffer.from(`${shop.name}:${shop.password}`).toString('base64')}`;

interface Verification {
  id: string;
  status: string;
  attemptsLeft: number;
  messageId: string;
  expiresAt: string;
  result?: string;
}

async function withShop(perDay = 100): Promise<GatewayUnderTest> {
  const started = await startGatewayUnderTest();
  under = started;
  const added = await started.request('POST', '/gateway/v1/apps', {
    json: { name: shop.name, password: shop.password, quota: { perDay, resetAt: '00:00', timeZone: 'UTC' } },
  });
  expect(added.status).toBe(201);
  return started;
}

async function send(gateway: GatewayUnderTest, json: unknown) {
  return gateway.request('POST', '/gateway/v1/verifications', { json, authorization: shopBasic });
}

async function check(gateway: GatewayUnderTest, id: string, code: string) {
  const answer = await gateway.request('POST', `/gateway/v1/verifications/${id}/check`, {
    json: { code },
    authorization: shopBasic,
  });
  return { status: answer.status, body: answer.body as Verification };
}

/** The code as the phone reads it: from the SMS the simulated modem put on the air. */
async function codeOnTheAir(gateway: GatewayUnderTest, to: string, nth = 1): Promise<string> {
  const modem = gateway.gateway.simulatedModems[0];
  if (!modem) throw new Error('no simulated modem');
  const sentTo = () => modem.accepted.filter((pdu) => pdu.decoded.recipient.number === to);
  await gateway.runUntil(() => sentTo().length >= nth, `code ${nth} to ${to}`);
  const text = sentTo()[nth - 1]?.decoded.text ?? '';
  return /(\d{4,10})/.exec(text)?.[1] ?? '';
}

describe('verification codes', () => {
  it('sends a code in the caller’s words, approves it once, and never shows it', async () => {
    const gateway = await withShop();
    const started = await send(gateway, {
      phoneNumber: '+15551230201',
      template: 'Ihr Code lautet {code}. Gültig 5 Minuten.',
      length: 8,
      ttl: 300,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const verification = started.body as Verification;
    expect(verification).toMatchObject({ status: 'pending', attemptsLeft: 5, phoneNumber: '+15551230201' });
    const code = await codeOnTheAir(gateway, '+15551230201');
    expect(code).toMatch(/^\d{8}$/);
    const modem = gateway.gateway.simulatedModems[0];
    expect(modem?.accepted.at(-1)?.decoded.text).toBe(`Ihr Code lautet ${code}. Gültig 5 Minuten.`);

    // The queue shows the SMS with its digits masked, to the app and in a search.
    const message = await gateway.request('GET', `/messages/${verification.messageId}`, {
      authorization: shopBasic,
    });
    expect((message.body as { textMessage: { text: string } }).textMessage.text).toBe(
      'Ihr Code lautet ••••••••. Gültig • Minuten.',
    );
    const found = await gateway.request('GET', `/messages?search=${code}`);
    expect(found.body).toEqual([]);
    // The staff's conversation list shows it masked too, as its last message.
    await gateway.runUntil(async () => {
      const listed = await gateway.request('GET', '/gateway/v1/conversations');
      return JSON.stringify(listed.body).includes('Ihr Code lautet ••••••••');
    }, 'the masked code in the conversation list');
    expect(JSON.stringify((await gateway.request('GET', '/gateway/v1/conversations')).body)).not.toContain(
      code,
    );
    // The verification keeps only the code's keyed hash, and once the SMS has left, its stored
    // text the masked code only (read as another program would).
    await gateway.runUntil(async () => {
      const sent = await gateway.request('GET', `/messages/${verification.messageId}`, {
        authorization: shopBasic,
      });
      return ['Sent', 'Delivered'].includes((sent.body as { state: string }).state);
    }, 'the code’s SMS sent');
    const outside = openSqlite(join(gateway.dataDir, databaseFileName), { readOnly: true });
    try {
      const row = outside
        .prepare<[string], Record<string, unknown>>('SELECT * FROM verifications WHERE id = ?')
        .get(verification.id);
      expect(row?.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(code);
      const stored = outside
        .prepare<[string], { body: string }>('SELECT body FROM messages WHERE id = ?')
        .get(verification.messageId);
      expect(stored?.body).toContain('Ihr Code lautet ••••••••');
      expect(stored?.body).not.toContain(code);
    } finally {
      outside.close();
    }

    const wrong = String((Number(code) + 1) % 10 ** 8).padStart(8, '0');
    expect((await check(gateway, verification.id, wrong)).body).toMatchObject({
      result: 'denied',
      attemptsLeft: 4,
    });
    expect((await check(gateway, verification.id, code)).body).toMatchObject({
      result: 'approved',
      status: 'approved',
    });
    expect((await check(gateway, verification.id, code)).status).toBe(409);
    // Another caller does not find it.
    expect((await gateway.request('GET', `/gateway/v1/verifications/${verification.id}`)).status).toBe(404);
  });

  it('spends a verification after five wrong codes and refuses an expired one', async () => {
    const gateway = await withShop();
    const first = (await send(gateway, { phoneNumber: '+15551230202' })).body as Verification;
    const code = await codeOnTheAir(gateway, '+15551230202');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let guess = 1; guess <= 5; guess++) await check(gateway, first.id, wrong);
    expect((await check(gateway, first.id, code)).body).toMatchObject({
      result: 'denied',
      status: 'max-attempts',
      attemptsLeft: 0,
    });

    await gateway.clock.advance(31_000);
    const second = (await send(gateway, { phoneNumber: '+15551230202', ttl: 60 })).body as Verification;
    const secondCode = await codeOnTheAir(gateway, '+15551230202', 2);
    await gateway.clock.advance(61_000);
    expect((await check(gateway, second.id, secondCode)).body).toMatchObject({
      result: 'denied',
      status: 'expired',
    });
  });

  it('limits resends to a number, and counts each code on the app’s quota', async () => {
    const gateway = await withShop(2);
    expect((await send(gateway, { phoneNumber: '+15551230203' })).status).toBe(201);
    const tooSoon = await send(gateway, { phoneNumber: '+15551230203' });
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(0);
    await gateway.clock.advance(31_000);
    expect((await send(gateway, { phoneNumber: '+15551230204' })).status).toBe(201);
    // The app's quota of two SMS a day is spent: the third code is refused as any message is.
    const overQuota = await send(gateway, { phoneNumber: '+15551230205' });
    expect(overQuota.status).toBe(429);
    expect((overQuota.body as { message: string }).message).toMatch(/quota/);
  });

  it('sends one code when two starts for a number come at once', async () => {
    const gateway = await withShop();
    const answers = await Promise.all([
      send(gateway, { phoneNumber: '+15551230207' }),
      send(gateway, { phoneNumber: '+15551230207' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 429]);
    const listed = await gateway.request('GET', '/messages?search=%2B15551230207', {
      authorization: shopBasic,
    });
    expect(listed.body).toHaveLength(1);
  });

  it('refuses bad input naming the field', async () => {
    const gateway = await withShop();
    const noCode = await send(gateway, { phoneNumber: '+15551230206', template: 'Hello' });
    expect(noCode.status).toBe(400);
    expect(noCode.body).toMatchObject({ field: 'template' });
    const badNumber = await send(gateway, { phoneNumber: 'not a number' });
    expect(badNumber).toMatchObject({ status: 400, body: { field: 'phoneNumber' } });
    const shortCode = await send(gateway, { phoneNumber: '+15551230206', length: 3 });
    expect(shortCode.body).toMatchObject({ field: 'length' });
  });
});
