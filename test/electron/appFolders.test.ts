import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserProfileFolder, desktopShellFolder, linuxLogFolder } from '../../electron/appFolders.js';
import { defaultDataDir } from '../../server/config/options.js';

const home = '/home/ana';
/** `inner` is `outer` or lies inside it. */
const within = (inner: string, outer: string) => !relative(outer, inner).startsWith('..');

describe('the window’s browser profile', () => {
  it.each([
    ['linux', { HOME: home }],
    ['linux', { HOME: home, XDG_CONFIG_HOME: '/srv/config', XDG_CACHE_HOME: '/srv/cache' }],
    ['linux', { HOME: home, XDG_CONFIG_HOME: '/srv/same', XDG_CACHE_HOME: '/srv/same' }],
    ['win32', { APPDATA: 'C:/Users/ana/AppData/Roaming', LOCALAPPDATA: 'C:/Users/ana/AppData/Local' }],
    ['win32', { APPDATA: 'D:/profile', LOCALAPPDATA: 'D:/profile' }],
    ['darwin', { HOME: home }],
  ] as const)('on %s (%o) lies apart from the gateway’s data', (platform, env) => {
    const profile = browserProfileFolder(platform, env, home);
    const data = defaultDataDir(platform, env);
    expect(within(profile, data)).toBe(false);
    expect(within(data, profile)).toBe(false);
  });

  it('goes where the OS keeps caches', () => {
    expect(browserProfileFolder('linux', {}, home)).toBe(join(home, '.cache/desktop-sms-gateway-window'));
    expect(browserProfileFolder('win32', { LOCALAPPDATA: 'L:' }, home)).toBe(
      join('L:', 'Desktop SMS Gateway window'),
    );
    expect(browserProfileFolder('darwin', {}, home)).toBe(
      join(home, 'Library/Caches/Desktop SMS Gateway window'),
    );
  });
});

describe('the log folder', () => {
  it('is XDG state on Linux, and Electron’s own choice elsewhere', () => {
    expect(linuxLogFolder('linux', {}, home)).toBe(join(home, '.local/state/desktop-sms-gateway/logs'));
    expect(linuxLogFolder('linux', { XDG_STATE_HOME: '/srv/state' }, home)).toBe(
      '/srv/state/desktop-sms-gateway/logs',
    );
    expect(linuxLogFolder('win32', {}, home)).toBeUndefined();
    expect(linuxLogFolder('darwin', {}, home)).toBeUndefined();
  });
});

describe('the shell’s own folder', () => {
  it.each([
    ['linux', { HOME: home }],
    ['win32', { APPDATA: 'C:/Users/ana/AppData/Roaming' }],
    ['darwin', { HOME: home }],
  ] as const)(
    'on %s is a folder of its own inside the data folder, not the data folder itself',
    (platform, env) => {
      const data = defaultDataDir(platform, env);
      expect(desktopShellFolder(platform, env)).toBe(join(data, 'desktop'));
    },
  );
});
