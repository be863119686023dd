import { type CountryCode, getExampleNumber, isSupportedCountry } from 'libphonenumber-js';
import mobileExamples from 'libphonenumber-js/examples.mobile.json';

/**
 * A mobile number as people of the default country write it ("(201) 555-0123" in the US,
 * "01512 3456789" in Germany), from libphonenumber's own examples; without a default country an
 * international one, since only those can be read then.
 */
export function numberExample(defaultCountry: string | undefined): string {
  const country = defaultCountry?.toUpperCase();
  if (country !== undefined && isSupportedCountry(country)) {
    const example = getExampleNumber(country as CountryCode, mobileExamples);
    if (example) return example.formatNational();
  }
  return '+44 7400 123456';
}
