import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DesktopPreferences, defaultPreferences, isPreferenceKey } from './ipcChannels.js';

/**
 * Desktop-only preferences (notifications, autostart, close-to-tray) in a small JSON file in
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
          if (isPreferenceKey(key) && typeof value === 'boolean') this.current[key] = value;
        }
      }
    } catch {
      // First run or an unreadable file: the defaults apply and the next save rewrites it.
    }
    return this.values;
  }

  async set(key: unknown, value: unknown): Promise<DesktopPreferences> {
    if (!isPreferenceKey(key)) throw new TypeError(`unknown preference ${String(key)}`);
    if (typeof value !== 'boolean') throw new TypeError(`preference ${key} takes true or false`);
    this.current[key] = value;
    const temporary = `${this.file}.tmp`;
    await writeFile(temporary, JSON.stringify(this.current, null, 2), { mode: 0o600 });
    await rename(temporary, this.file);
    return this.values;
  }

  private get file(): string {
    return join(this.directory, 'desktop-preferences.json');
  }
}
