import { withoutLogin } from '../../contract/domain/serverUrl.js';
import type { DocumentMigration } from '../../store/documentStore.js';

/**
 * Steps of the stored settings (`StoredSettings` in `settings.json`): `settingsMigrations[n]`
 * turns version n into n + 1 (server/store/documentStore.ts runs them at open).
 */
export const settingsMigrations: readonly DocumentMigration[] = [
  /**
   * 0 → 1: received messages got their own lifetime, `incoming.lifetime_days`, unset meaning
   * "keep forever". Before it the inbox went with `messages.log_lifetime_days`, so a user who had
   * set that keeps the inbox retention they had.
   */
  (data) => {
    const values = (data.values ?? {}) as Record<string, Record<string, unknown> | undefined>;
    const days = values.messages?.log_lifetime_days;
    if (typeof days !== 'number' || values.incoming?.lifetime_days !== undefined) return data;
    return { ...data, values: { ...values, incoming: { ...values.incoming, lifetime_days: days } } };
  },
  /**
   * 1 → 2: `gateway.cloud_url` no longer takes a user and password, as every settings
   * reader saw them. One kept from before loses them; fetch refuses such a URL, so it never
   * reached the server with them anyway.
   */
  (data) => {
    const values = (data.values ?? {}) as Record<string, Record<string, unknown> | undefined>;
    const cloudUrl = values.gateway?.cloud_url;
    if (typeof cloudUrl !== 'string') return data;
    return {
      ...data,
      values: { ...values, gateway: { ...values.gateway, cloud_url: withoutLogin(cloudUrl) } },
    };
  },
];
