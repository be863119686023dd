import { type CountryCode, isSupportedCountry } from 'libphonenumber-js';

/** True for an ISO 3166 alpha-2 code that has a calling code (`DE`, `US`, `GB`…). */
export function isCountryCode(value: string): value is CountryCode {
  return /^[A-Z]{2}$/.test(value) && isSupportedCountry(value);
}
