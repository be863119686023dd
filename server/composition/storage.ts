import type { Clock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import { seedDefaultCountry } from '../services/desk/systemRegion.js';
import { settingsMigrations } from '../services/settings/settingsMigrations.js';
import {
  emptyStoredSettings,
  SettingsService,
  type StoredSettings,
} from '../services/settings/settingsService.js';
import type { SchemaUpgrade } from '../store/migrationBackup.js';
import { openStorage, type Storage } from '../store/storage.js';
import type { StopList } from './stopList.js';

export interface GatewayStorage {
  storage: Storage;
  settings: SettingsService;
}

/**
 * The store (closed last: its stop is the first added) and the API's settings on it.
 * `region` seeds `desk.default_country` on a first run (the system locale's country; the test
 * harness gives none and keeps the empty default).
 */
export async function openGatewayStorage(deps: {
  dataDir: string;
  /** How long the database's helper threads stay after their last request. */
  threadIdleMs?: number;
  region: string | undefined;
  /** Called once the store is open, before anything is read from it (the logs go there from then on). */
  onOpen?: (storage: Storage) => void;
  /** Called before a schema migration, once the database is backed up. */
  onSchemaUpgrade?: (upgrade: SchemaUpgrade) => void;
  clock: Clock;
  logger: Logger;
  stops: StopList;
}): Promise<GatewayStorage> {
  const storage = await openStorage({
    dataDir: deps.dataDir,
    clock: deps.clock,
    logger: deps.logger,
    ...(deps.threadIdleMs === undefined ? {} : { threadIdleMs: deps.threadIdleMs }),
    ...(deps.onSchemaUpgrade ? { onSchemaUpgrade: deps.onSchemaUpgrade } : {}),
  });
  deps.stops.add(() => storage.close());
  deps.onOpen?.(storage);
  const settingsLogger = deps.logger.child('settings');
  const settings = new SettingsService(
    await storage.openDocument<StoredSettings>(
      'settings',
      structuredClone(emptyStoredSettings),
      settingsMigrations,
    ),
    settingsLogger,
  );
  await seedDefaultCountry(settings, deps.region, settingsLogger);
  return { storage, settings };
}
