import { describe, expect, it } from 'vitest';
import { e164PeerKey } from '../../server/contract/domain/peerKey.js';
import { normalisePhoneNumber } from '../../server/contract/domain/phoneNumbers.js';
import { systemRegion } from '../../server/services/desk/systemRegion.js';

describe('numbers as people type them', () => {
  it.each([
    ['0171 1234567', 'DE', '+491711234567'],
    ['(555) 123-4567', 'US', '+15551234567'],
    ['0044 20 7946 0958', 'DE', '+442079460958'],
    ['+44 20 7946 0958', undefined, '+442079460958'],
    ['020 7946 0958', 'GB', '+442079460958'],
  ])('reads %s with default country %s as %s', (typed, country, e164) => {
    expect(normalisePhoneNumber(typed, country)).toEqual({ ok: true, e164 });
  });

  it.each([
    ['', 'DE', 'empty', 'the number is empty'],
    ['hello', 'DE', 'not-a-number', 'hello is not a phone number'],
    ['555-1234', 'US', 'too-short', '555-1234 is too short for a number in US'],
    ['+4915', 'US', 'too-short', '+4915 is too short for a number'],
    ['+49 171 1234567 999999', 'DE', 'too-long', '+49 171 1234567 999999 is too long for a number'],
    ['+999 1234', 'DE', 'unknown-country', '+999 1234 starts with a country code that does not exist'],
    [
      '0171 1234567',
      undefined,
      'no-country',
      '0171 1234567 has no country code: write it with + or set the default country',
    ],
  ])('explains why %s (default %s) is not a number', (typed, country, problem, message) => {
    expect(normalisePhoneNumber(typed, country)).toEqual({ ok: false, problem, message });
  });
});

describe('the default country at first run', () => {
  it('takes the region of the resolved locale, else of LANG, and none from a bare language or C', () => {
    expect(systemRegion('de-DE', {})).toBe('DE');
    expect(systemRegion('en', { LANG: 'fr_FR.UTF-8' })).toBe('FR');
    expect(systemRegion('en', { LANG: 'C.UTF-8' })).toBeUndefined();
    expect(systemRegion('de', {})).toBeUndefined();
  });
});

describe('the desk key of a party', () => {
  it('reads a national number with the default country in force at each call, remembered or not', () => {
    let country: string | null = 'GB';
    const key = e164PeerKey(() => country);
    expect(key('07700 900123')).toBe('+447700900123');
    expect(key('07700 900123')).toBe('+447700900123');
    country = 'DE';
    expect(key('0151 23456789')).toBe('+4915123456789');
    expect(key('07700 900123')).not.toBe('+447700900123');
    country = null;
    expect(key('vodafone')).toBe('VODAFONE');
  });
});
