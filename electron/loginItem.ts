import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { productName } from './appIdentity.js';

export interface LoginItemHost {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The app's executable (`process.execPath`). */
  execPath: string;
  /** Electron's `app.setLoginItemSettings` (macOS and Windows only, docs/api/app.md). */
  setLoginItemSettings(settings: LoginItemSettings): void;
  writeFile(path: string, text: string): Promise<void>;
  removeFile(path: string): Promise<void>;
}

/**
 * `args` (Windows: "The command-line arguments to pass to the executable") carries the hidden
 * start; macOS passes no arguments to login items, and says instead that the app was opened at
 * login (`getLoginItemSettings().wasOpenedAtLogin`), which `startsHidden` reads.
 */
export interface LoginItemSettings {
  openAtLogin: boolean;
  args?: string[];
}

/** The flag a start at login carries: the window stays in the tray until someone opens it. */
export const hiddenStartFlag = '--hidden';

/**
 * Whether this run was started at login and so starts to the tray: by the flag (Windows, the
 * Linux autostart entry) or, on macOS, by what the login item reports.
 */
export function startsHidden(
  argv: readonly string[],
  platform: NodeJS.Platform,
  wasOpenedAtLogin: () => boolean,
): boolean {
  return argv.includes(hiddenStartFlag) || (platform === 'darwin' && wasOpenedAtLogin());
}

export const nodeLoginItemFiles = {
  writeFile: async (path: string, text: string) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, { mode: 0o644 });
  },
  removeFile: (path: string) => rm(path, { force: true }),
};

/**
 * Start at login. Electron does it on macOS and Windows; on Linux `setLoginItemSettings` does
 * nothing, so we write an XDG autostart entry (freedesktop "Desktop Application Autostart
 * Specification": `$XDG_CONFIG_HOME/autostart/<name>.desktop`, XDG_CONFIG_HOME defaulting to
 * ~/.config). An AppImage runs from a temporary mount, so the entry starts the AppImage file
 * itself (`$APPIMAGE`, set by the AppImage runtime) rather than the mounted binary. Every start
 * at login is hidden: the gateway runs, its window waits in the tray.
 */
export async function applyStartAtLogin(enabled: boolean, host: LoginItemHost): Promise<void> {
  if (host.platform !== 'linux') {
    host.setLoginItemSettings(
      host.platform === 'win32'
        ? { openAtLogin: enabled, args: [hiddenStartFlag] }
        : { openAtLogin: enabled },
    );
    return;
  }
  const path = autostartEntryPath(host.env);
  if (!enabled) {
    await host.removeFile(path);
    return;
  }
  await host.writeFile(path, autostartEntry(host.env.APPIMAGE ?? host.execPath));
}

export function autostartEntryPath(env: NodeJS.ProcessEnv): string {
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(configHome, 'autostart', 'desktop-sms-gateway.desktop');
}

function autostartEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${productName}`,
    `Exec=${quoteExec(executable)} ${hiddenStartFlag}`,
    'X-GNOME-Autostart-enabled=true',
    'Terminal=false',
    '',
  ].join('\n');
}

/**
 * Desktop Entry Specification, "The Exec key": an argument with spaces is double-quoted, and
 * inside quotes `"`, `` ` ``, `$` and `\` are escaped with a backslash; a literal `%` is `%%`.
 */
function quoteExec(path: string): string {
  const escaped = path.replace(/[\\"`$]/g, (character) => `\\${character}`).replace(/%/g, '%%');
  return `"${escaped}"`;
}
