import { describe, expect, it } from 'vitest';
import { isOpen } from '../../server/desk/rules/openingHours.js';
import type { AutoReplyRule } from '../../server/desk/rules/ruleBook.js';
import { judgeRules } from '../../server/desk/rules/ruleEngine.js';
import { matchText } from '../../server/desk/rules/textMatch.js';

const weekdays = {
  timeZone: 'Europe/Berlin',
  periods: [{ days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' }],
};

describe('opening hours', () => {
  it('reads the clock of the given zone, not the machine’s', () => {
    // 2026-11-23 is a Monday; 08:30 UTC is 09:30 in Berlin.
    expect(isOpen(weekdays, Date.UTC(2026, 10, 23, 8, 30))).toBe(true);
    // 16:30 UTC is 17:30 in Berlin: closed.
    expect(isOpen(weekdays, Date.UTC(2026, 10, 23, 16, 30))).toBe(false);
    // Saturday.
    expect(isOpen(weekdays, Date.UTC(2026, 10, 28, 10, 0))).toBe(false);
  });
});

describe('matching a text', () => {
  it('takes a keyword at the start as a whole word, in any case', () => {
    expect(matchText({ kind: 'startsWith', pattern: 'PRICE' }, '  price list').matched).toBe(true);
    expect(matchText({ kind: 'startsWith', pattern: 'PRICE' }, 'Price').matched).toBe(true);
    expect(matchText({ kind: 'startsWith', pattern: 'PRICE' }, 'priceless').matched).toBe(false);
  });

  it('stops a catastrophic regular expression at its time limit and calls it no match', () => {
    expect(matchText({ kind: 'regex', pattern: '^(a+)+$' }, `${'a'.repeat(40)}!`)).toEqual({
      matched: false,
      timedOut: true,
    });
    expect(matchText({ kind: 'regex', pattern: 'open.*sunday' }, 'Open on SUNDAY?').matched).toBe(true);
  });
});

describe('judging the rules', () => {
  const rule = (overrides: Partial<AutoReplyRule>): AutoReplyRule => ({
    id: 'r',
    position: 1,
    name: 'Night',
    enabled: true,
    match: { kind: 'any', pattern: '' },
    conditions: {},
    action: { kind: 'reply', text: 'We are closed.' },
    ...overrides,
  });
  const subject = {
    text: 'hello',
    sender: '+4915112345678',
    deviceId: 'modem-a',
    at: Date.UTC(2026, 10, 23, 8, 30),
  };

  it('says why a rule does not apply', () => {
    const verdicts = judgeRules(
      [
        rule({ id: 'off', enabled: false }),
        rule({ id: 'other-modem', conditions: { deviceId: 'modem-b' } }),
        rule({ id: 'open', conditions: { outsideOpeningHours: weekdays } }),
        rule({ id: 'any' }),
      ],
      subject,
    );
    expect(verdicts.map((verdict) => [verdict.ruleId, verdict.applies, verdict.reason])).toEqual([
      ['off', false, 'the rule is switched off'],
      ['other-modem', false, 'the message did not arrive on modem modem-b'],
      ['open', false, 'it arrived within opening hours'],
      ['any', true, 'every message matches'],
    ]);
  });
});
