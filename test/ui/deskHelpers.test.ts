import { describe, expect, it } from 'vitest';
import { campaignSeconds } from '../../renderer/src/desk/campaignEstimate.js';
import { searchNeedle, splitTypedRecipients } from '../../renderer/src/desk/typedNumbers.js';
import { plainNetworkError } from '../../renderer/src/format/networkErrors.js';
import { foldText } from '../../server/contract/domain/textFold.js';

describe('searchNeedle', () => {
  it.each([
    ['(555) 201-0100', 'US', '+15552010100'],
    ['0160 1111111', 'DE', '+491601111111'],
    ['0160 11', 'DE', '+4916011'],
    ['017', 'DE', '17'],
    ['+49 160', 'DE', '49160'],
    ['Müller', 'DE', 'Müller'],
    ['order 12', 'DE', 'order 12'],
  ])('reads %s (default %s) as %s', (typed, country, needle) => {
    expect(searchNeedle(typed, country)).toBe(needle);
  });
});

describe('splitTypedRecipients', () => {
  it('keeps the names of a name and number column pasted from a spreadsheet, in either order', () => {
    const read = splitTypedRecipients('Anna Schmidt\t0170 1234567\r\n+49 171 7654321\tBen\n');
    expect(read.phoneNumbers).toEqual([]);
    expect(read.named).toEqual([
      { line: 1, recipient: { phoneNumber: '0170 1234567', fields: { name: 'Anna Schmidt' } } },
      { line: 2, recipient: { phoneNumber: '+49 171 7654321', fields: { name: 'Ben' } } },
    ]);
  });

  it('reads typed numbers and a row of number cells as plain numbers, beside named lines', () => {
    const read = splitTypedRecipients('0170 1, 0171 2\n0172 3\t0173 4\nCara\t0174 5');
    expect(read.phoneNumbers).toEqual(['0170 1', '0171 2', '0172 3', '0173 4']);
    expect(read.named).toEqual([{ line: 3, recipient: { phoneNumber: '0174 5', fields: { name: 'Cara' } } }]);
  });

  it('reads a pasted row without a number as one recipient, its last cell the number', () => {
    const read = splitTypedRecipients('Ann\t0170 1\nBad row\tnot a number\nWorse\t12');
    expect(read.phoneNumbers).toEqual([]);
    expect(
      read.named.map((named) => [named.line, named.recipient.phoneNumber, named.recipient.fields.name]),
    ).toEqual([
      [1, '0170 1', 'Ann'],
      [2, 'not a number', 'Bad row'],
      [3, '12', 'Worse'],
    ]);
  });
});

describe('foldText', () => {
  it.each([
    ['Müller', 'muller'],
    ['JOSÉ', 'jose'],
    ['Ångström', 'angstrom'],
    ['İSTANBUL', 'istanbul'],
    ['Søren Łukasz Straße', 'soren lukasz strasse'],
    ['한국어', '한국어'],
    ['+49 160\nline', '+49 160\nline'],
  ])('folds %s to %s', (text, folded) => {
    expect(foldText(text)).toBe(folded);
  });
});

describe('campaignSeconds', () => {
  const open = { sendIntervalMin: null, sendIntervalMax: null, limitPeriod: null, limitValue: null };

  it('shares the parts among the ready modems at about 3 s a part', () => {
    expect(campaignSeconds(100, 100, { ...open, modems: 2 })).toBe(150);
  });

  it('adds the pause between messages of each modem', () => {
    expect(campaignSeconds(10, 10, { ...open, modems: 1, sendIntervalMin: 5, sendIntervalMax: 15 })).toBe(
      10 * 3 + 9 * 10,
    );
  });

  it('waits out the limit per period when it is the slower bound', () => {
    expect(campaignSeconds(100, 100, { ...open, modems: 1, limitPeriod: 'PerHour', limitValue: 30 })).toBe(
      3 * 3600,
    );
  });

  it('has no estimate without a ready modem', () => {
    expect(campaignSeconds(5, 5, { ...open, modems: 0 })).toBeUndefined();
  });
});

describe('plainNetworkError', () => {
  it('puts words before a known code and keeps the original text', () => {
    expect(plainNetworkError('connect ECONNREFUSED 127.0.0.1:9')).toBe(
      'nothing accepted the connection at that address (is the receiver running?) (connect ECONNREFUSED 127.0.0.1:9)',
    );
  });

  it('leaves a text without a known code as it is', () => {
    expect(plainNetworkError('receiver answered HTTP 500')).toBe('receiver answered HTTP 500');
  });
});
