import { describe, expect, it } from 'vitest';
import { digitsTokens, searchPlan, textTrigramSource } from '../../server/store/sqlite/searchIndex.js';

describe('digitsTokens', () => {
  it('gives every suffix of every digit run, and the whole run after "p" when a "+" leads it', () => {
    expect(digitsTokens('call +4412 or 07, room b9')).toBe('p4412 4412 412 12 2 07 7 9');
  });

  it('gives nothing for text without digits', () => {
    expect(digitsTokens('no numbers here')).toBe('');
  });

  it('cuts each suffix of a long run to 32 digits, so a run costs at most 32 digits a position', () => {
    const run = '1234567890'.repeat(5);
    const tokens = digitsTokens(`+${run}`).split(' ');
    expect(tokens).toHaveLength(run.length + 1);
    expect(tokens[0]).toBe(`p${run.slice(0, 32)}`);
    expect(tokens[1]).toBe(run.slice(0, 32));
    expect(tokens.at(-1)).toBe('0');
    expect(Math.max(...tokens.map((token) => token.length))).toBe(33);
  });
});

describe('searchPlan', () => {
  it('looks up digits, with or without "+", as a prefix of the digits index', () => {
    expect(searchPlan('4477')).toEqual({
      kind: 'index',
      index: 'digits',
      probe: '"4477"*',
      checkRows: false,
    });
    expect(searchPlan('+4')).toEqual({ kind: 'index', index: 'digits', probe: '"p4"*', checkRows: false });
  });

  it('checks the rows for digits longer than a token', () => {
    const digits = '9'.repeat(33);
    expect(searchPlan(digits)).toEqual({
      kind: 'index',
      index: 'digits',
      probe: `"${'9'.repeat(32)}"*`,
      checkRows: true,
    });
  });

  it('looks up other needles of three code points or more as a trigram phrase, quotes doubled', () => {
    expect(searchPlan('say "hi"')).toEqual({
      kind: 'index',
      index: 'text',
      probe: '"say ""hi"""',
      checkRows: false,
    });
    expect(searchPlan('44 77')).toMatchObject({ index: 'text' });
    expect(searchPlan('é🎉a')).toMatchObject({ index: 'text' });
  });

  it('scans for needles of fewer than three code points that are not numbers', () => {
    expect(searchPlan('ab')).toEqual({ kind: 'scan' });
    expect(searchPlan('+')).toEqual({ kind: 'scan' });
    expect(searchPlan('🎉🎉')).toEqual({ kind: 'scan' });
  });

  it('scans for needles across a line break, which the indexes do not keep', () => {
    expect(searchPlan('noon\n+1555')).toEqual({ kind: 'scan' });
  });
});

describe('textTrigramSource', () => {
  it('leaves out the lines that are whole numbers, which no text needle can be part of', () => {
    expect(textTrigramSource('see you at 10\n+4477009123\n07700\nvodafone uk\n+44 20 7183')).toBe(
      'see you at 10\nvodafone uk\n+44 20 7183',
    );
  });
});
