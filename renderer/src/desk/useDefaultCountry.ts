import { useApp } from '../appContext.js';
import { useResource } from '../useResource.js';
import { numberExample } from './numberExample.js';

/** The `desk.default_country` setting (undefined while loading, unset, or not readable by this token). */
export function useDefaultCountry(): string | undefined {
  const { api } = useApp();
  const settings = useResource(() => api.settings(), [api]);
  const value = settings.data?.desk?.default_country;
  return typeof value === 'string' ? value : undefined;
}

/** A number written as people of the default country write one: the placeholder of number fields. */
export function useNumberExample(): string {
  return numberExample(useDefaultCountry());
}
