import { describe, expect, it } from 'vitest';
import { decideRoute, type RoutingRule } from '../../server/contract/domain/routingRules.js';
import type { SimTargetForm } from '../../server/contract/domain/simTarget.js';
import type { SimRef } from '../../server/services/plans/simPlan.js';
import { createRouteGuard } from '../../server/services/routing/routeGuard.js';
import { routedMessage } from './routedMessage.js';

const noOperators = { operatorOf: () => ({ unknown: 'operator unknown for this number' }) };

const rules: RoutingRule[] = [
  { id: 'mobile-de', prefix: '+4917', deviceIds: [{ deviceId: 'modem-c' }], fallbackDeviceIds: [] },
  {
    id: 'de',
    prefix: '+49',
    deviceIds: [{ deviceId: 'modem-a' }],
    fallbackDeviceIds: [{ deviceId: 'modem-b' }],
  },
  { id: 'us', prefix: '+1', deviceIds: [{ deviceId: 'dual', simNumber: 2 }], fallbackDeviceIds: [] },
];

describe('routing rules', () => {
  it.each([
    ['+4917012345678', ['modem-a', 'modem-c'], ['modem-c'], 'mobile-de'],
    ['+4930123456', ['modem-a', 'modem-b'], ['modem-a'], 'de'],
    ['+4930123456', ['modem-b'], ['modem-b'], 'de'],
    ['+4917012345678', ['modem-a'], ['modem-c'], 'mobile-de'],
    ['+445551234567', ['modem-a'], undefined, undefined],
  ] as const)('sends %s, with %j online, through %j (rule %s)', (number, online, expected, ruleId) => {
    const decision = decideRoute(rules, number, new Set(online));
    expect(decision.deviceIds?.map((target) => target.deviceId)).toEqual(expected);
    expect(decision.ruleId).toBe(ruleId);
    expect(decision.why).not.toBe('');
  });

  it('names the SIM slot a rule sends to', () => {
    expect(decideRoute(rules, '+15551234567', new Set(['dual'])).why).toBe('rule +1: dual (SIM 2)');
  });
});

const message = routedMessage;

const single = (deviceId: string) => ({ deviceId, simSlots: 1 });
const dual = { deviceId: 'dual', simSlots: 2 };
const toUs = { recipients: [{ phoneNumber: '+15551234567', state: 'Pending' as const, updatedAt: 0 }] };

describe('the scheduler hook', () => {
  const allowed: Record<string, SimTargetForm[]> = {
    shop: ['modem-b', 'dual'],
    'slot-two': [{ deviceId: 'dual', simNumber: 2 }],
  };
  const guard = createRouteGuard({
    book: { list: () => rules },
    operators: noOperators,
    allowedTargets: (appId) => allowed[appId],
  });
  const online = [single('modem-a'), single('modem-b'), dual];

  it('keeps a message to the modems its rule names', () => {
    expect(guard(message({}), single('modem-a'), online)).toEqual([1]);
    expect(guard(message({}), single('modem-b'), online)).toEqual([]);
  });

  it("keeps an app's message to the app's allowed modems, rules included", () => {
    expect(guard(message({ appId: 'shop' }), single('modem-a'), online)).toEqual([]);
    expect(guard(message({ appId: 'shop', recipients: [] }), single('modem-b'), online)).toEqual([1]);
  });

  it('leaves a message its sender pinned to a modem where the sender put it', () => {
    expect(guard(message({ requestedDeviceId: 'modem-b' }), single('modem-b'), online)).toEqual([1]);
  });

  it('answers the slots of a modem a rule or an app names, and the slot a message asks for', () => {
    expect(guard(message(toUs), dual, online)).toEqual([2]);
    expect(guard(message({ ...toUs, simNumber: 1 }), dual, online)).toEqual([]);
    expect(guard(message({ recipients: [] }), dual, online)).toEqual([1, 2]);
    expect(guard(message({ appId: 'slot-two', recipients: [] }), dual, online)).toEqual([2]);
    expect(guard(message({ appId: 'slot-two', recipients: [], simNumber: 1 }), dual, online)).toEqual([]);
    expect(
      guard(message({ appId: 'slot-two', recipients: [], requestedDeviceId: 'dual' }), dual, online),
    ).toEqual([2]);
  });
});

describe('the scheduler hook with SIM plans', () => {
  const online = [single('modem-a'), single('modem-b'), single('modem-c'), dual];
  const key = (sim: SimRef) => `${sim.deviceId}/${sim.sim}`;
  const guardWith = (capped: readonly string[], spilling: readonly string[]) =>
    createRouteGuard({
      book: { list: () => rules },
      operators: noOperators,
      allowedTargets: (appId) => (appId === 'shop' ? ['modem-a', 'modem-b'] : undefined),
      plans: {
        capped: (_message, sim) => capped.includes(key(sim)),
        spills: (sim) => spilling.includes(key(sim)),
      },
    });

  it('keeps a message off a capped SIM, even one its sender pinned there', () => {
    const guard = guardWith(['modem-a/1'], []);
    expect(guard(message({}), single('modem-a'), online)).toEqual([]);
    expect(guard(message({ requestedDeviceId: 'modem-a' }), single('modem-a'), online)).toEqual([]);
  });

  it('holds a message its rule sends only to capped SIMs, unless their plan spills', () => {
    expect(guardWith(['modem-a/1'], [])(message({}), single('modem-b'), online)).toEqual([]);
    expect(guardWith(['modem-a/1'], ['modem-a/1'])(message({}), single('modem-b'), online)).toEqual([1]);
    expect(guardWith(['modem-a/1'], ['modem-a/1'])(message({}), single('modem-c'), online)).toEqual([1]);
    // Spilled, an app's message still keeps to the app's allowed modems.
    expect(
      guardWith(['modem-a/1'], ['modem-a/1'])(message({ appId: 'shop' }), single('modem-c'), online),
    ).toEqual([]);
    expect(
      guardWith(['modem-a/1'], ['modem-a/1'])(message({ appId: 'shop' }), single('modem-b'), online),
    ).toEqual([1]);
  });

  it('checks the plan of each slot: a capped slot leaves the others to a message that names none', () => {
    const guard = guardWith(['dual/1'], []);
    expect(guard(message({ recipients: [] }), dual, online)).toEqual([2]);
    expect(guard(message({ recipients: [], requestedDeviceId: 'dual' }), dual, online)).toEqual([2]);
    expect(guard(message({ recipients: [], requestedDeviceId: 'dual', simNumber: 1 }), dual, online)).toEqual(
      [],
    );
    expect(guardWith(['dual/2'], [])(message(toUs), dual, online)).toEqual([]);
    expect(guardWith(['dual/2'], ['dual/2'])(message(toUs), dual, online)).toEqual([1]);
  });
});
