import { isCountryCode } from '../../contract/domain/countryCode.js';
import type { Logger } from '../../logging/logger.js';
import type { SettingsService } from '../settings/settingsService.js';

/**
 * The country of this computer's locale, for the `desk.default_country` setting at first run:
 * the region of Intl's resolved locale (`de-DE` → `DE`), else of `LC_ALL`/`LANG`
 * (`de_DE.UTF-8` → `DE`). Undefined where neither names a country (`C`, `POSIX`, a bare `de`:
 * a language is not a country, and guessing one would turn numbers into wrong ones).
 */
export function systemRegion(
  intlLocale: string = Intl.DateTimeFormat().resolvedOptions().locale,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const fromEnv = (env.LC_ALL || env.LANG || '').split('.')[0]?.replace('_', '-') ?? '';
  for (const tag of [intlLocale, fromEnv]) {
    const region = regionOf(tag);
    if (region) return region;
  }
  return undefined;
}

function regionOf(tag: string): string | undefined {
  if (tag === '' || tag === 'C' || tag === 'POSIX') return undefined;
  try {
    const region = new Intl.Locale(tag).region;
    return region && isCountryCode(region) ? region : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sets `desk.default_country` from the locale once, when it was never set: afterwards it is the
 * user's setting. Nothing is written when the locale names no country.
 */
export async function seedDefaultCountry(
  settings: SettingsService,
  region: string | undefined,
  logger: Logger,
): Promise<void> {
  if (settings.current().desk.default_country !== null || region === undefined) return;
  await settings.patch({ desk: { default_country: region } });
  logger.info('default country for phone numbers taken from the system locale', { country: region });
}
