import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
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

const preferencesFileName = 'desktop-preferences.json';

/**
 * Desktop-only preferences (notifications, autostart, close-to-tray, port) in a small JSON file in
 * the shell's folder (appFolders.ts, desktopShellFolder); the gateway's own settings live in the core.
 */
export class PreferencesFile {
  private current: DesktopPreferences = { ...defaultPreferences };

  constructor(
    private readonly directory: string,
    /** Where an earlier version kept the file: read once when this folder has none yet. */
    private readonly previousDirectory?: string,
  ) {}

  get values(): DesktopPreferences {
    return { ...this.current };
  }

  async load(): Promise<DesktopPreferences> {
    try {
      const text = (await readFile(this.file, 'utf8').catch(() => undefined)) ?? (await this.adoptPrevious());
      const parsed: unknown = JSON.parse(text ?? '');
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
    await mkdir(this.directory, { recursive: true });
    const temporary = `${this.file}.tmp`;
    await writeFile(temporary, JSON.stringify(this.current, null, 2), { mode: 0o600 });
    await rename(temporary, this.file);
    return this.values;
  }

  private assign<Key extends PreferenceKey>(key: Key, value: DesktopPreferences[Key]): void {
    this.current[key] = value;
  }

  /** The earlier version's file, copied here (that version still finds its own). */
  private async adoptPrevious(): Promise<string | undefined> {
    if (this.previousDirectory === undefined) return undefined;
    const text = await readFile(join(this.previousDirectory, preferencesFileName), 'utf8').catch(
      () => undefined,
    );
    if (text === undefined) return undefined;
    await mkdir(this.directory, { recursive: true });
    await writeFile(this.file, text, { mode: 0o600 });
    return text;
  }

  private get file(): string {
    return join(this.directory, preferencesFileName);
  }
}
