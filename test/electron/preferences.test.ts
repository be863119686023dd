import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultPreferences } from '../../electron/ipcChannels.js';
import { PreferencesFile } from '../../electron/preferences.js';

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'smsgw-prefs-'));
  directories.push(dir);
  return dir;
}

describe('the desktop preferences file', () => {
  it('keeps a chosen port across restarts, and null brings back the default', async () => {
    const dir = await folder();
    await new PreferencesFile(dir).set('listenPort', 8081);
    expect((await new PreferencesFile(dir).load()).listenPort).toBe(8081);
    await new PreferencesFile(dir).set('listenPort', null);
    expect((await new PreferencesFile(dir).load()).listenPort).toBeNull();
  });

  it('takes an earlier version’s file from its folder once, into a folder not there yet', async () => {
    const earlier = await folder();
    await new PreferencesFile(earlier).set('listenPort', 8082);
    const shell = join(await folder(), 'desktop');
    expect((await new PreferencesFile(shell, earlier).load()).listenPort).toBe(8082);
    // Now its own: a change is kept in the new folder and the earlier file is left as it was.
    await new PreferencesFile(shell, earlier).set('listenPort', 8083);
    expect((await new PreferencesFile(shell, earlier).load()).listenPort).toBe(8083);
    expect((await new PreferencesFile(earlier).load()).listenPort).toBe(8082);
  });

  it('refuses a value of the wrong kind from the window', async () => {
    const preferences = new PreferencesFile(await folder());
    for (const [key, value] of [
      ['listenPort', 0],
      ['listenPort', 70_000],
      ['listenPort', '8080'],
      ['listenPort', 80.5],
      ['closeToTray', 1],
      ['nodeIntegration', true],
    ] as const) {
      await expect(preferences.set(key, value)).rejects.toThrow(TypeError);
    }
    expect(preferences.values).toEqual(defaultPreferences);
  });

  it('ignores what a hand-edited file got wrong and keeps what it got right', async () => {
    const dir = await folder();
    await writeFile(
      join(dir, 'desktop-preferences.json'),
      JSON.stringify({ listenPort: 'eighty', closeToTray: false, startAtLogin: 'yes' }),
    );
    const loaded = await new PreferencesFile(dir).load();
    expect(loaded).toEqual({ ...defaultPreferences, closeToTray: false });
    expect(JSON.parse(await readFile(join(dir, 'desktop-preferences.json'), 'utf8')).listenPort).toBe(
      'eighty',
    );
  });

  it('keeps a new install’s PC awake while messages wait, until the user says otherwise', async () => {
    const loaded = await new PreferencesFile(await folder()).load();
    expect(loaded.keepAwakeWhileQueued).toBe(true);
  });
});
