import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../server/contract/domain/webhookEvents.js';
import type { DeviceView } from '../../server/contract/schemas/deviceViewSchema.js';
import { type GatewayUnderTest, startGatewayUnderTest } from '../compat/support/gatewayUnderTest.js';

/**
 * Issue 39, SIM plans, on the whole gateway (built-in simulated modems, real storage, the real
 * server on loopback) on a ManualClock that starts at 2026-01-01 12:00 UTC: a day of the plans
 * below ends at 12:10 UTC.
 */
const resetAt = Date.UTC(2026, 0, 1, 12, 10);
const dailyFive = { perDay: 5, resetAt: '12:10', timeZone: 'UTC' };

let gateway: GatewayUnderTest | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

interface MessageState {
  id: string;
  state: string;
  deviceId?: string;
}

interface PlanView {
  usage: { cap: string; used: number; limit: number; resetsAt: string }[];
}

async function deviceIds(under: GatewayUnderTest): Promise<string[]> {
  const devices = (await under.request('GET', '/devices')).body as { id: string }[];
  return devices.map((device) => device.id).sort();
}

async function sendSix(under: GatewayUnderTest): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < 6; index++) {
    const sent = await under.request('POST', '/messages', {
      json: { textMessage: { text: `plan test ${index}` }, phoneNumbers: [`+1555000000${index}`] },
    });
    expect(sent.status).toBe(202);
    ids.push((sent.body as MessageState).id);
  }
  return ids;
}

async function states(under: GatewayUnderTest, ids: readonly string[]): Promise<MessageState[]> {
  return Promise.all(
    ids.map(async (id) => (await under.request('GET', `/messages/${id}`)).body as MessageState),
  );
}

/** Sent, or already delivered: the simulator reports delivery a simulated second later. */
const wentOut = (message: MessageState | undefined) =>
  message?.state === 'Sent' || message?.state === 'Delivered';
const sentCount = (all: readonly MessageState[]) => all.filter(wentOut).length;

describe('a SIM plan with a daily cap of 5', () => {
  it('sends 5, holds the 6th with the reason, and sends it after the reset', async () => {
    const under = await startGatewayUnderTest();
    gateway = under;
    const [modem] = (await deviceIds(under)) as [string];
    const facts: WebhookEvent[] = [];
    under.gateway.events.on('gateway:fact', (fact) => facts.push(fact));
    const stored = await under.request('PUT', `/gateway/v1/plans/${modem}/1`, { json: dailyFive });
    expect(stored.status).toBe(200);

    const ids = await sendSix(under);
    let holding: { reason: string; detail: string; deviceId?: string; simNumber?: number } | undefined;
    await under.runUntil(async () => {
      const status = (await under.request('GET', '/gateway/v1/status')).body as {
        scheduler: { holding?: typeof holding };
      };
      holding = status.scheduler.holding;
      return sentCount(await states(under, ids)) === 5 && holding?.reason === 'plan-cap';
    }, 'five sent and the sixth held by the plan');
    expect(holding?.detail).toBe(
      `plan cap reached on SIM 1 of modem ${modem} (5 messages per day), resets at 2026-01-01T12:10:00.000Z`,
    );
    // Named too, so the window says it with the modem's name and in local time.
    expect(holding).toMatchObject({ deviceId: modem, simNumber: 1, nextAttemptAt: resetAt });
    const waiting = (await states(under, ids)).filter((message) => message.state === 'Pending');
    expect(waiting).toHaveLength(1);
    const sixth = waiting[0]?.id as string;
    const plans = (await under.request('GET', '/gateway/v1/plans')).body as { plans: PlanView[] };
    expect(plans.plans[0]?.usage).toEqual([
      { cap: 'day', period: 'day', limit: 5, used: 5, resetsAt: '2026-01-01T12:10:00.000Z' },
    ]);
    // 80 % of 5 at the 4th, 100 % at the 5th.
    expect(facts.map((fact) => [fact.event, fact.payload.used, fact.payload.percent])).toEqual([
      ['plan:cap-warning', 4, 80],
      ['plan:cap-reached', 5, 100],
    ]);
    expect(facts[1]?.payload).toMatchObject({
      simNumber: 1,
      cap: 'day',
      limit: 5,
      resetsAt: '2026-01-01T12:10:00.000Z',
    });

    // The desktop shell's notification says it for the person at the PC: the modem as its card
    // names it and the reset on the PC's clock, never the raw id or a UTC timestamp.
    const devices = (await under.request('GET', '/devices')).body as DeviceView[];
    const device = devices.find((entry) => entry.id === modem);
    const localReset = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
      resetAt,
    );
    const capped = under.gateway.attention().planCaps;
    expect(capped).toEqual({
      near: [],
      reached: [
        `SIM 1 of ${device?.name} (${device?.modem.port}) used 5 of 5 messages per day; counts again from ${localReset}`,
      ],
    });
    expect(capped?.reached[0]).not.toContain(modem);
    expect(capped?.reached[0]).not.toMatch(/\d{4}-\d\d-\d\dT/);

    // To a second before the reset in the steps runUntil takes, so the modem's real I/O keeps
    // pace with the clock: still held.
    while (under.clock.now() < resetAt - 1000) {
      await under.clock.advance(100);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await states(under, [sixth]))[0]?.state).toBe('Pending');
    await under.runUntil(
      async () => wentOut((await states(under, [sixth]))[0]),
      'the sixth sent after the reset',
    );
    const after = (await under.request('GET', '/gateway/v1/plans')).body as { plans: PlanView[] };
    expect(after.plans[0]?.usage[0]).toMatchObject({ used: 1, resetsAt: '2026-01-02T12:10:00.000Z' });
    expect(under.gateway.attention().planCaps).toEqual({ near: [], reached: [] });
  });

  it('spills the 6th to a second SIM when the plan says spill', async () => {
    const under = await startGatewayUnderTest({ simulatedModems: 2 });
    gateway = under;
    const [first, second] = (await deviceIds(under)) as [string, string];
    // Every number goes through the first modem, so only its cap can move a message elsewhere.
    const routed = await under.request('PUT', '/gateway/v1/routing', {
      json: { rules: [{ prefix: '+', deviceIds: [first] }] },
    });
    expect(routed.status).toBe(200);
    const stored = await under.request('PUT', `/gateway/v1/plans/${first}/1`, {
      json: { ...dailyFive, whenCapped: 'spill' },
    });
    expect(stored.status).toBe(200);

    const ids = await sendSix(under);
    let carried: MessageState[] = [];
    await under.runUntil(async () => {
      carried = await states(under, ids);
      return sentCount(carried) === 6;
    }, 'all six sent');
    const through = (deviceId: string) => carried.filter((message) => message.deviceId === deviceId).length;
    expect([through(first), through(second)]).toEqual([5, 1]);
  });
});

describe('the plans API', () => {
  it('names the field of a bad plan, and removes a plan', async () => {
    const under = await startGatewayUnderTest();
    gateway = under;
    const [modem] = (await deviceIds(under)) as [string];
    const put = (sim: string, json: unknown) =>
      under.request('PUT', `/gateway/v1/plans/${modem}/${sim}`, { json });
    const refusals = [
      [await put('1', { perDay: -1 }), 'perDay'],
      [await put('1', { unit: 'parts' }), 'perDay'],
      [await put('1', { perDay: 5, timeZone: 'Mars/Olympus' }), 'timeZone'],
      [await put('1', { perDay: 5, resetAt: '24:00' }), 'resetAt'],
      [await put('1', { recipients: { limit: 10, period: 'year' } }), 'recipients.period'],
      [await put('1', { perDay: 5, whenCapped: 'fail' }), 'whenCapped'],
      [await put('9', { perDay: 5 }), 'sim'],
    ] as const;
    for (const [answer, field] of refusals) {
      expect(answer.status, field).toBe(400);
      expect((answer.body as { message: string }).message.startsWith(`${field}: `), answer.text).toBe(true);
    }
    expect((await under.request('GET', '/gateway/v1/plans')).body).toEqual({ plans: [] });

    expect((await put('2', { perMonth: 100, unit: 'parts' })).status).toBe(200);
    expect((await under.request('DELETE', `/gateway/v1/plans/${modem}/2`)).status).toBe(204);
    expect((await under.request('DELETE', `/gateway/v1/plans/${modem}/2`)).status).toBe(404);
    const viewer = await under.bearer(['settings:read']);
    const refused = await under.request('PUT', `/gateway/v1/plans/${modem}/1`, {
      json: dailyFive,
      authorization: viewer,
    });
    expect(refused.status).toBe(403);
  });

  it('accepts webhooks for the plan events', async () => {
    const under = await startGatewayUnderTest();
    gateway = under;
    for (const event of ['plan:cap-warning', 'plan:cap-reached']) {
      const added = await under.request('POST', '/webhooks', {
        json: { url: 'https://hooks.example.com/plan', event },
      });
      expect(added.status, event).toBe(201);
    }
  });
});
