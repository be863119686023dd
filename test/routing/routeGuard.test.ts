import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../server/domain/message.js';
import { createRouteGuard } from '../../server/routing/routeGuard.js';
import { decideRoute, type RoutingRule } from '../../server/routing/routingRules.js';

const noOperators = { operatorOf: () => ({ unknown: 'operator unknown for this number' }) };

const rules: RoutingRule[] = [
  { id: 'mobile-de', prefix: '+4917', deviceIds: ['modem-c'], fallbackDeviceIds: [] },
  { id: 'de', prefix: '+49', deviceIds: ['modem-a'], fallbackDeviceIds: ['modem-b'] },
];

describe('routing rules', () => {
  it.each([
    ['+4917012345678', ['modem-a', 'modem-c'], ['modem-c'], 'mobile-de'],
    ['+4930123456', ['modem-a', 'modem-b'], ['modem-a'], 'de'],
    ['+4930123456', ['modem-b'], ['modem-b'], 'de'],
    ['+4917012345678', ['modem-a'], ['modem-c'], 'mobile-de'],
    ['+15551234567', ['modem-a'], undefined, undefined],
  ] as const)('sends %s, with %j online, through %j (rule %s)', (number, online, expected, ruleId) => {
    const decision = decideRoute(rules, number, new Set(online));
    expect(decision.deviceIds).toEqual(expected);
    expect(decision.ruleId).toBe(ruleId);
    expect(decision.why).not.toBe('');
  });
});

function message(overrides: Partial<MessageRecord>): MessageRecord {
  return {
    id: 'm',
    content: { kind: 'text', text: 'hi' },
    recipients: [{ phoneNumber: '+4930123456', state: 'Pending', updatedAt: 0 }],
    withDeliveryReport: false,
    priority: 0,
    isEncrypted: false,
    createdAt: 0,
    sequence: 1,
    states: {},
    state: 'Pending',
    ...overrides,
  };
}

describe('the scheduler hook', () => {
  const guard = createRouteGuard({
    book: { list: () => rules },
    operators: noOperators,
    allowedDevices: (appId) => (appId === 'shop' ? ['modem-b'] : undefined),
  });
  const online = [{ deviceId: 'modem-a' }, { deviceId: 'modem-b' }];

  it('keeps a message to the modems its rule names', () => {
    expect(guard(message({}), 'modem-a', online)).toBe(true);
    expect(guard(message({}), 'modem-b', online)).toBe(false);
  });

  it("keeps an app's message to the app's allowed modems, rules included", () => {
    expect(guard(message({ appId: 'shop' }), 'modem-a', online)).toBe(false);
    expect(guard(message({ appId: 'shop', recipients: [] }), 'modem-b', online)).toBe(true);
  });

  it('leaves a message its sender pinned to a modem where the sender put it', () => {
    expect(guard(message({ requestedDeviceId: 'modem-b' }), 'modem-b', online)).toBe(true);
  });
});

describe('the scheduler hook with SIM plans', () => {
  const online = [{ deviceId: 'modem-a' }, { deviceId: 'modem-b' }, { deviceId: 'modem-c' }];
  const guardWith = (capped: readonly string[], spilling: readonly string[]) =>
    createRouteGuard({
      book: { list: () => rules },
      operators: noOperators,
      allowedDevices: (appId) => (appId === 'shop' ? ['modem-a', 'modem-b'] : undefined),
      plans: {
        capped: (_message, deviceId) => capped.includes(deviceId),
        spills: (_message, deviceId) => spilling.includes(deviceId),
      },
    });

  it('keeps a message off a capped SIM, even one its sender pinned there', () => {
    const guard = guardWith(['modem-a'], []);
    expect(guard(message({}), 'modem-a', online)).toBe(false);
    expect(guard(message({ requestedDeviceId: 'modem-a' }), 'modem-a', online)).toBe(false);
  });

  it('holds a message its rule sends only to capped SIMs, unless their plan spills', () => {
    expect(guardWith(['modem-a'], [])(message({}), 'modem-b', online)).toBe(false);
    expect(guardWith(['modem-a'], ['modem-a'])(message({}), 'modem-b', online)).toBe(true);
    expect(guardWith(['modem-a'], ['modem-a'])(message({}), 'modem-c', online)).toBe(true);
    // Spilled, an app's message still keeps to the app's allowed modems.
    expect(guardWith(['modem-a'], ['modem-a'])(message({ appId: 'shop' }), 'modem-c', online)).toBe(false);
    expect(guardWith(['modem-a'], ['modem-a'])(message({ appId: 'shop' }), 'modem-b', online)).toBe(true);
  });
});
