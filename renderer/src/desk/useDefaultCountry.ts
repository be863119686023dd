import { useApp } from '../appContext.js';
import { useResource } from '../useResource.js';

/** The `desk.default_country` setting (undefined while loading, unset, or not readable by this token). */
export function useDefaultCountry(): string | undefined {
  const { api } = useApp();
  const settings = useResource(() => api.settings(), [api]);
  const value = settings.data?.desk?.default_country;
  return typeof value === 'string' ? value : undefined;
}
