import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type DesktopPreferences,
  defaultPreferences,
  isPreferenceKey,
  type PreferenceKey,
} from './ipcChannels.js';

/** Values arrive from IPC and from a file the user may have edited: each is checked. */
export function isValidPreference<Key extends PreferenceKey>(
  key: Key,
  value: unknown,
): value is DesktopPreferences[Key] {
  if (key === 'listenPort') {
    return (
      value === null || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65_535)
    );
  }
  return typeof value === 'boolean';
}

/**
 * Desktop-only preferences (notifications, autostart, close-to-tray, port) in a small JSON file in
 * the app's user-data folder; the gateway's own settings live in the core.
 */
export class PreferencesFile {
  private current: DesktopPreferences = { ...defaultPreferences };

  constructor(private readonly directory: string) {}

  get values(): DesktopPreferences {
    return { ...this.current };
  }

  async load(): Promise<DesktopPreferences> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.file, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null) {
        for (const [key, value] of Object.entries(parsed)) {
          if (isPreferenceKey(key) && isValidPreference(key, value)) this.assign(key, value);
        }
      }
    } catch {
      // First run or an unreadable file: the defaults apply and the next save rewrites it.
    }
    return this.values;
  }

  async set(key: unknown, value: unknown): Promise<DesktopPreferences> {
    if (!isPreferenceKey(key)) throw new TypeError(`unknown preference ${String(key)}`);
    if (!isValidPreference(key, value)) {
      throw new TypeError(
        key === 'listenPort'
          ? 'preference listenPort takes a port 1..65535, or null for the default'
          : `preference ${key} takes true or false`,
      );
    }
    this.assign(key, value);
    const temporary = `${this.file}.tmp`;
    await writeFile(temporary, JSON.stringify(this.current, null, 2), { mode: 0o600 });
    await rename(temporary, this.file);
    return this.values;
  }

  private assign<Key extends PreferenceKey>(key: Key, value: DesktopPreferences[Key]): void {
    this.current[key] = value;
  }

  private get file(): string {
    return join(this.directory, 'desktop-preferences.json');
  }
}
