import { ParseError, parsePhoneNumberWithError, validatePhoneNumberLength } from 'libphonenumber-js';
import { isCountryCode } from './countryCode.js';

/**
 * Numbers as people type them (`0171 1234567`, `(555) 123-4567`, `+44 20 7946 0958`) turned into
 * E.164 with libphonenumber-js, the port of Google's libphonenumber. Pure: the UI uses it too, so
 * Compose and the CSV import show the same friendly error the API would give.
 *
 * A number is accepted when its length is possible for its country, not only when it is in a
 * range the metadata lists as assigned: fictional test numbers (+1 555…) and ranges opened after
 * this build must still go out.
 */
export type PhoneNumberProblem =
  | 'empty'
  | 'not-a-number'
  | 'no-country'
  | 'unknown-country'
  | 'too-short'
  | 'too-long'
  | 'invalid-length';

export type NormalisedNumber =
  | { ok: true; e164: string }
  | { ok: false; problem: PhoneNumberProblem; message: string };

/**
 * `input` as E.164, read as a national number of `defaultCountry` unless it starts with `+` or
 * `00`. Never throws: a problem comes back with a sentence for the person who typed it.
 */
export function normalisePhoneNumber(input: string, defaultCountry: string | undefined): NormalisedNumber {
  const typed = input.trim();
  if (typed === '') return problem('empty', 'the number is empty');
  const international = typed.replace(/^00/, '+');
  const country = defaultCountry && isCountryCode(defaultCountry) ? defaultCountry : undefined;
  if (!international.startsWith('+') && !country) {
    return problem('no-country', `${typed} has no country code: write it with + or set the default country`);
  }
  try {
    // A number written with its country code is not read with the default country: a problem
    // with it names no country ("+4915 is too short", not "… for a number in US").
    const readIn = international.startsWith('+') ? undefined : country;
    const parsed = parsePhoneNumberWithError(international, country);
    if (!parsed.isPossible()) {
      return fromParseError(
        typed,
        validatePhoneNumberLength(international, country) ?? 'INVALID_LENGTH',
        readIn,
      );
    }
    return { ok: true, e164: parsed.number };
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    return fromParseError(typed, error.message, international.startsWith('+') ? undefined : country);
  }
}

function fromParseError(typed: string, reason: string, country: string | undefined): NormalisedNumber {
  switch (reason) {
    case 'INVALID_COUNTRY':
      return problem('unknown-country', `${typed} starts with a country code that does not exist`);
    case 'TOO_SHORT':
      return problem('too-short', `${typed} is too short for a number${country ? ` in ${country}` : ''}`);
    case 'TOO_LONG':
      return problem('too-long', `${typed} is too long for a number${country ? ` in ${country}` : ''}`);
    case 'INVALID_LENGTH':
      return problem(
        'invalid-length',
        `${typed} does not have the length of a number${country ? ` in ${country}` : ''}`,
      );
    default:
      return problem('not-a-number', `${typed} is not a phone number`);
  }
}

function problem(kind: PhoneNumberProblem, message: string): NormalisedNumber {
  return { ok: false, problem: kind, message };
}
