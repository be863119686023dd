import { describe, expect, it } from 'vitest';
import { ApiError } from '../../renderer/src/api/apiClient.js';
import { moveRule, refusedField, rulesWith } from '../../renderer/src/routing/ruleList.js';

const rule = (id: string) => ({ id, prefix: `+${id}`, deviceIds: ['modem-a'], fallbackDeviceIds: [] });

describe('the Routing screen rule list', () => {
  it('moves a rule one place, and leaves the list as it is at either end', () => {
    const rules = ['1', '2', '3'];
    expect(moveRule(rules, 2, -1)).toEqual(['1', '3', '2']);
    expect(moveRule(rules, 0, 1)).toEqual(['2', '1', '3']);
    expect(moveRule(rules, 0, -1)).toEqual(rules);
    expect(moveRule(rules, 2, 1)).toEqual(rules);
  });

  it('adds a draft last, or puts it in place of the edited rule with that rule id', () => {
    const draft = { prefix: '+44', deviceIds: ['modem-b'], fallbackDeviceIds: [] };
    expect(rulesWith([rule('1')], draft, undefined)).toEqual([rule('1'), draft]);
    expect(rulesWith([rule('1'), rule('2')], draft, 1)).toEqual([rule('1'), { ...draft, id: '2' }]);
  });

  it('marks the field the API names, for the rule in the form only', () => {
    const refusal = (field: string) => new ApiError('invalid', 400, `${field}: bad`, field);
    expect(refusedField(refusal('rules[1].prefix'), 1)).toBe('prefix');
    expect(refusedField(refusal('rules[1].fallbackDeviceIds[0]'), 1)).toBe('fallbackDeviceIds');
    expect(refusedField(refusal('rules[10].prefix'), 1)).toBeUndefined();
    expect(refusedField(refusal('rules[0].prefix'), 1)).toBeUndefined();
    expect(refusedField(new ApiError('conflict', 409, 'no', 'rules[1].prefix'), 1)).toBeUndefined();
    expect(refusedField(new Error('rules[1].prefix'), 1)).toBeUndefined();
  });
});
