import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/logging/logger.js';
import { isOpen } from '../../server/services/desk/rules/openingHours.js';
import type { AutoReplyRule } from '../../server/services/desk/rules/ruleBook.js';
import { judgeRules } from '../../server/services/desk/rules/ruleEngine.js';
import { matchText } from '../../server/services/desk/rules/textMatch.js';
import { PatternMatcher, type PatternMatching } from '../../server/services/patterns/patternMatcher.js';

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

  it('runs a period that ends before it starts past midnight, into the morning after its days', () => {
    // Friday and Saturday nights, 18:00–02:00 in Berlin (UTC+1 in November).
    const bar = { timeZone: 'Europe/Berlin', periods: [{ days: [5, 6], from: '18:00', to: '02:00' }] };
    // Friday 2026-11-27 23:30 Berlin.
    expect(isOpen(bar, Date.UTC(2026, 10, 27, 22, 30))).toBe(true);
    // Saturday 01:30 Berlin: the Friday night goes on.
    expect(isOpen(bar, Date.UTC(2026, 10, 28, 0, 30))).toBe(true);
    // Saturday 02:30 Berlin: closed until 18:00.
    expect(isOpen(bar, Date.UTC(2026, 10, 28, 1, 30))).toBe(false);
    // Sunday 01:00 Berlin: Saturday night's morning.
    expect(isOpen(bar, Date.UTC(2026, 10, 29, 0, 0))).toBe(true);
    // Monday 01:00 Berlin: Sunday has no period.
    expect(isOpen(bar, Date.UTC(2026, 10, 30, 0, 0))).toBe(false);
  });
});

describe('matching a text', () => {
  it('takes a keyword at the start as a whole word, in any case', () => {
    expect(matchText({ kind: 'startsWith', pattern: 'PRICE' }, '  price list')).toBe(true);
    expect(matchText({ kind: 'startsWith', pattern: 'PRICE' }, 'Price')).toBe(true);
    expect(matchText({ kind: 'startsWith', pattern: 'PRICE' }, 'priceless')).toBe(false);
  });
});

/** For rules without a regular expression: asked nothing, it answers nothing. */
const noPatterns: PatternMatching = {
  match: async (patterns) => {
    expect(patterns).toEqual([]);
    return [];
  },
};

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

  it('says why a rule does not apply', async () => {
    const verdicts = await judgeRules(
      [
        rule({ id: 'off', enabled: false }),
        rule({ id: 'other-modem', conditions: { deviceId: 'modem-b' } }),
        rule({ id: 'open', conditions: { outsideOpeningHours: weekdays } }),
        rule({ id: 'any' }),
      ],
      subject,
      noPatterns,
    );
    expect(verdicts.map((verdict) => [verdict.ruleId, verdict.applies, verdict.reason])).toEqual([
      ['off', false, 'the rule is switched off'],
      ['other-modem', false, 'the message did not arrive on modem modem-b'],
      ['open', false, 'it arrived within opening hours'],
      ['any', true, 'every message matches'],
    ]);
  });
});

describe('judging rules with regular expressions', () => {
  const patterns = new PatternMatcher({
    name: 'rule pattern',
    logger: createLogger({ level: 'ERROR', sinks: [] }),
  });
  afterAll(() => patterns.close());
  const regexRule = (id: string, pattern: string, extra: Partial<AutoReplyRule> = {}): AutoReplyRule => ({
    id,
    position: 1,
    name: id,
    enabled: true,
    match: { kind: 'regex', pattern },
    conditions: {},
    action: { kind: 'reply', text: 'x' },
    ...extra,
  });
  const subject = { text: ' Open on SUNDAY? ', sender: '+4915112345678', deviceId: 'modem-a', at: 0 };

  it('runs them in any case on the trimmed text, and says which ran out of time and which never ran', async () => {
    const verdicts = await judgeRules(
      [
        regexRule('sunday', '^open.*sunday\\?$'),
        regexRule('runaway', '^(a+)+$|(.|.)*X'),
        regexRule('after', 'open'),
        regexRule('off', '(.|.)*X', { patternDisabled: { reason: 'timed-out', at: 0 } }),
      ],
      { ...subject, text: `${subject.text}${'a'.repeat(40)}` },
      patterns,
    );
    expect(verdicts.map(({ ruleId, applies, patternState }) => ({ ruleId, applies, patternState }))).toEqual([
      { ruleId: 'sunday', applies: false, patternState: undefined },
      { ruleId: 'runaway', applies: false, patternState: 'timed-out' },
      { ruleId: 'after', applies: false, patternState: 'not-run' },
      { ruleId: 'off', applies: false, patternState: 'disabled' },
    ]);
    const plain = await judgeRules([regexRule('sunday', '^open.*sunday\\?$')], subject, patterns);
    expect(plain.map((verdict) => [verdict.applies, verdict.reason])).toEqual([[true, 'the text matches']]);
  });
});
