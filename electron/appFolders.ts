import { homedir } from 'node:os';
import { join } from 'node:path';
import { defaultDataDir } from '../server/config/options.js';
import { productName } from './appIdentity.js';

/**
 * Where the window's Chromium profile goes (Electron's `sessionData`: cookies, caches, local
 * storage, GPU cache; docs/api/app.md, app.getPath). By default it is `userData`, which on
 * Linux is `~/.config/desktop-sms-gateway`, the very folder of `gateway.db` (the packaged
 * package.json has no productName, so Electron names it after `name`). Giving the package a
 * productName would move it into the data folder on Windows and macOS instead, where the data
 * folder carries the product name; so the profile gets a folder of its own, in the OS's place
 * for caches (nothing in it is the user's), apart from the data on every platform.
 */
export function browserProfileFolder(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  home: string = homedir(),
): string {
  // A folder name of its own: the cache base may be the data's base (XDG_CACHE_HOME set to
  // XDG_CONFIG_HOME, LOCALAPPDATA to APPDATA).
  if (platform === 'win32')
    return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), `${productName} window`);
  if (platform === 'darwin') return join(home, 'Library', 'Caches', `${productName} window`);
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'desktop-sms-gateway-window');
}

/**
 * The shell's own folder, Electron's `userData` (its preferences file and single-instance lock):
 * `desktop/` inside the gateway's data folder, so each OS has one folder of the app, under one
 * name, and nothing of the shell lies beside `gateway.db`. Electron's default, named after the
 * package, was the data folder itself on Linux and a second, differently named one elsewhere.
 */
export function desktopShellFolder(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  return join(defaultDataDir(platform, env), 'desktop');
}

/**
 * The log folder on Linux: `$XDG_STATE_HOME` (default `~/.local/state`), which the XDG Base
 * Directory Specification names for "actions history (logs, history, …)". Elsewhere Electron's
 * own choice applies (app.setAppLogsPath: `~/Library/Logs/<app>` on macOS, beside the user
 * data on Windows); undefined there.
 */
export function linuxLogFolder(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  home: string = homedir(),
): string | undefined {
  if (platform !== 'linux') return undefined;
  return join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'desktop-sms-gateway', 'logs');
}
