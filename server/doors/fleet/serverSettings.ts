import {
  type SettingGroup,
  type SettingsPatch,
  settingGroups,
} from '../../contract/schemas/settingsSchema.js';
import type { Logger } from '../../logging/logger.js';

/**
 * Our settings patch from upstream's `smsgateway.DeviceSettings` (client-go
 * `domain_settings.go`; the same snake_case groups and keys as ours). The `gateway` group is
 * never taken: it holds the very address and credential fleet mode runs on. Groups and keys we
 * do not have (e.g. `receiver.inbox_refresh`), and values our bounds refuse, are skipped with a
 * warning.
 */
export function settingsFromServer(body: unknown, logger: Logger): SettingsPatch {
  const patch: Record<string, Record<string, unknown>> = {};
  if (typeof body !== 'object' || body === null) return patch;
  for (const [group, keys] of Object.entries(body as Record<string, unknown>)) {
    if (typeof keys !== 'object' || keys === null) continue;
    const schemas = group === 'gateway' ? undefined : settingGroups[group as SettingGroup];
    for (const [key, value] of Object.entries(keys as Record<string, unknown>)) {
      if (value === null || value === undefined) continue;
      const schema = (
        schemas as Record<string, { safeParse(value: unknown): { success: boolean } }> | undefined
      )?.[key];
      if (!schema?.safeParse(value).success) {
        logger.warn('a setting of the private server is not supported here; skipped', {
          key: `${group}.${key}`,
        });
        continue;
      }
      patch[group] = { ...patch[group], [key]: value };
    }
  }
  return patch as SettingsPatch;
}
