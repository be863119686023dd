import { afterEach, describe, expect, it, vi } from 'vitest';
import { AndroidPhoneDouble, fastPhonePolling, phonePatience } from '../support/androidPhone.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';

/**
 * Issue 39, routing and plans per SIM slot, on the whole gateway (real storage, the real server
 * on loopback) with a dual-SIM Android phone (the contract double, two SIM cards in GET /device):
 * the slot that sends is one its plan, its rule and its app allow.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dualSimGateway() {
  const phone = new AndroidPhoneDouble();
  phone.simCardCount = 2;
  const port = await phone.start();
  cleanups.push(() => phone.stop());
  const harness = await startGatewayHarness({
    ptyModems: 0,
    phoneTiming: fastPhonePolling,
    options: { phones: [phone.urlWithCredentials(port)] },
  });
  cleanups.push(() => harness.close());
  let deviceId = '';
  await vi.waitFor(async () => {
    const devices = (
      await harness.api.get<{ id: string; simCards: unknown[]; modem: { status: string } }[]>('/devices')
    ).body;
    expect(devices).toHaveLength(1);
    expect(devices[0]?.modem.status).toBe('ready');
    expect(devices[0]?.simCards).toHaveLength(2);
    deviceId = devices[0]?.id ?? '';
  }, phonePatience);
  return { phone, harness, deviceId };
}

async function send(
  harness: GatewayHarness,
  text: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<string> {
  const posted = await harness.api.request<{ id: string }>('POST', '/messages', {
    json: { textMessage: { text }, phoneNumbers: ['+15551234567'], ...extra },
    headers,
  });
  expect(posted.status).toBe(202);
  return posted.body.id;
}

/** The SIM slot the phone was asked to send each message on, once it has them all. */
async function slotsOnPhone(
  phone: AndroidPhoneDouble,
  ids: readonly string[],
): Promise<(number | undefined)[]> {
  await vi.waitFor(() => expect(ids.every((id) => phone.messages.has(id))).toBe(true), phonePatience);
  return ids.map((id) => phone.messages.get(id)?.simNumber);
}

async function holdingDetail(harness: GatewayHarness): Promise<string | undefined> {
  const status = await harness.api.get<{ scheduler: { holding?: { detail: string } } }>('/gateway/v1/status');
  return status.body.scheduler.holding?.detail;
}

/** "HH:00" in UTC, `hours` from now: a day's reset that cannot fall within the test (system clock). */
const hoursAway = (hours: number) => `${String((new Date().getUTCHours() + hours) % 24).padStart(2, '0')}:00`;

const basic = (name: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`,
});

describe('a dual-SIM phone whose slot 1 has a daily cap of 1', () => {
  it('sends two messages that name no SIM one through each slot, and holds one that asks for slot 1', async () => {
    const { phone, harness, deviceId } = await dualSimGateway();
    const plan = await harness.api.request('PUT', `/gateway/v1/plans/${deviceId}/1`, {
      json: { perDay: 1, resetAt: hoursAway(12), timeZone: 'UTC' },
    });
    expect(plan.status).toBe(200);

    const first = await send(harness, 'first');
    const second = await send(harness, 'second');
    expect((await slotsOnPhone(phone, [first, second])).sort()).toEqual([1, 2]);

    const held = await send(harness, 'waits for the reset', { simNumber: 1 });
    await vi.waitFor(
      async () => expect(await holdingDetail(harness)).toMatch(/^plan cap reached on SIM 1 of modem /),
      phonePatience,
    );
    expect(phone.messages.has(held)).toBe(false);
  });
});

describe('an app allowed only slot 2 of a dual-SIM phone', () => {
  it('sends all its messages on slot 2, and holds one that asks for slot 1 with the reason', async () => {
    const { phone, harness, deviceId } = await dualSimGateway();
    const added = await harness.api.post('/gateway/v1/apps', {
      name: 'shop',
      password: 'shop-secret-1',
      allowedDeviceIds: [{ deviceId, simNumber: 2 }],
    });
    expect(added.status).toBe(201);
    expect((added.body as { allowedDeviceIds: unknown }).allowedDeviceIds).toEqual([
      { deviceId, simNumber: 2 },
    ]);
    const asShop = basic('shop', 'shop-secret-1');

    const ids: string[] = [];
    for (const text of ['one', 'two', 'three']) ids.push(await send(harness, text, {}, asShop));
    expect(await slotsOnPhone(phone, ids)).toEqual([2, 2, 2]);

    const held = await send(harness, 'slot 1, please', { simNumber: 1 }, asShop);
    await vi.waitFor(
      async () =>
        expect(await holdingDetail(harness)).toBe(
          `SIM 1 asked for, but app shop may use only modem ${deviceId} (SIM 2)`,
        ),
      phonePatience,
    );
    expect(phone.messages.has(held)).toBe(false);
  });
});

describe('a routing rule that names one SIM of a dual-SIM phone', () => {
  it('sends its numbers on that slot, and refuses a slot no modem has', async () => {
    const { phone, harness, deviceId } = await dualSimGateway();
    const refused = await harness.api.request<{ message: string }>('PUT', '/gateway/v1/routing', {
      json: { rules: [{ prefix: '+1', deviceIds: [{ deviceId, simNumber: 4 }] }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('rules[0].deviceIds[0]');

    const stored = await harness.api.request('PUT', '/gateway/v1/routing', {
      json: { rules: [{ prefix: '+1', deviceIds: [{ deviceId, simNumber: 2 }] }] },
    });
    expect(stored.status).toBe(200);
    const ids = [await send(harness, 'one'), await send(harness, 'two')];
    expect(await slotsOnPhone(phone, ids)).toEqual([2, 2]);
  });
});
