import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appId, productName } from '../../electron/appIdentity.js';
import { coreArguments } from '../../electron/coreArguments.js';
import {
  applyAppIdentity,
  bringToFront,
  onAllWindowsClosed,
  trayIconFile,
} from '../../electron/desktopShell.js';
import {
  applyStartAtLogin,
  autostartEntryPath,
  nodeLoginItemFiles,
  startsHidden,
} from '../../electron/loginItem.js';
import { GatewayTray } from '../../electron/tray.js';
import { FakeApp, FakeTray, FakeWindow } from './support/electronDouble.js';

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** PNG width and height from the IHDR chunk (PNG spec §11.2.2). */
async function pngSize(path: string): Promise<[number, number]> {
  const bytes = await readFile(path);
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('the desktop shell', () => {
  it('uses the installer’s appId as the Windows AppUserModelID, and only on Windows', async () => {
    const builder = await readFile('electron-builder.yml', 'utf8');
    expect(/^appId: (.+)$/m.exec(builder)?.[1]).toBe(appId);
    expect(/^productName: (.+)$/m.exec(builder)?.[1]).toBe(productName);
    const windows = new FakeApp();
    applyAppIdentity(windows, 'win32');
    expect(windows.appUserModelId).toBe(appId);
    for (const platform of ['darwin', 'linux'] as const) {
      const other = new FakeApp();
      applyAppIdentity(other, platform);
      expect(other.appUserModelId).toBeUndefined();
    }
  });

  it('restores a minimised window when the tray, a second launch or the dock asks for it', () => {
    const window = new FakeWindow();
    window.minimized = true;
    bringToFront(window);
    expect(window).toMatchObject({ minimized: false, visible: true, focused: true });
  });

  it('quits when the window closes unless close-to-tray is on', () => {
    let quits = 0;
    onAllWindowsClosed(true, () => quits++);
    expect(quits).toBe(0);
    onAllWindowsClosed(false, () => quits++);
    expect(quits).toBe(1);
  });

  it('ships a 16×16 macOS Template tray image with its @2x twin, and the tray image elsewhere', async () => {
    expect(trayIconFile('darwin')).toBe('trayTemplate.png');
    expect(await pngSize('resources/trayTemplate.png')).toEqual([16, 16]);
    expect(await pngSize('resources/trayTemplate@2x.png')).toEqual([32, 32]);
    for (const platform of ['win32', 'linux'] as const) {
      expect(await stat(join('resources', trayIconFile(platform)))).toBeTruthy();
    }
  });

  it('labels the tray’s pause item from the core’s state and asks the core for the opposite', () => {
    const asked: boolean[] = [];
    const actions = {
      toggleWindow: () => undefined,
      setSendingPaused: (paused: boolean) => asked.push(paused),
      retryNow: () => undefined,
      stopRetrying: () => undefined,
      openLogsFolder: () => undefined,
      quit: () => undefined,
    };
    const tray = new FakeTray();
    const gatewayTray = new GatewayTray(tray, actions);
    gatewayTray.showCore({ kind: 'running' });
    tray.choose('Pause sending');
    gatewayTray.showPaused(true);
    tray.choose('Resume sending');
    expect(asked).toEqual([true, false]);
  });

  it('uses the coloured alert icon when the gateway needs attention, on every platform', async () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      expect(trayIconFile(platform, true)).toBe('trayAlert.png');
    }
    expect(await pngSize('resources/trayAlert.png')).toEqual([32, 32]);
    expect(await pngSize('resources/trayAlert@2x.png')).toEqual([64, 64]);
  });
});

describe('start at login', () => {
  function linuxHost(home: string, env: NodeJS.ProcessEnv = {}) {
    const app = new FakeApp();
    return {
      app,
      host: {
        platform: 'linux' as const,
        env: { HOME: home, ...env },
        execPath: '/opt/Desktop SMS Gateway/desktop-sms-gateway',
        setLoginItemSettings: (settings: { openAtLogin: boolean; args?: string[] }) =>
          app.setLoginItemSettings(settings),
        ...nodeLoginItemFiles,
      },
    };
  }

  it('writes and removes an XDG autostart entry on Linux, where Electron does nothing', async () => {
    const home = await mkdtemp(join(tmpdir(), 'smsgw-home-'));
    directories.push(home);
    const { app, host } = linuxHost(home);
    await applyStartAtLogin(true, host);
    const path = join(home, '.config', 'autostart', 'desktop-sms-gateway.desktop');
    const entry = await readFile(path, 'utf8');
    expect(entry).toContain('[Desktop Entry]');
    expect(entry).toContain('Exec="/opt/Desktop SMS Gateway/desktop-sms-gateway" --hidden');
    expect(app.loginItem).toBeUndefined();
    await applyStartAtLogin(false, host);
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('starts the AppImage file itself, quoted as the Desktop Entry spec says', async () => {
    const home = await mkdtemp(join(tmpdir(), 'smsgw-home-'));
    directories.push(home);
    const config = join(home, 'xdg');
    const { host } = linuxHost(home, { XDG_CONFIG_HOME: config, APPIMAGE: '/home/a$b/100% "SMS".AppImage' });
    await applyStartAtLogin(true, host);
    expect(autostartEntryPath(host.env)).toBe(join(config, 'autostart', 'desktop-sms-gateway.desktop'));
    const entry = await readFile(autostartEntryPath(host.env), 'utf8');
    expect(entry).toContain('Exec="/home/a\\$b/100%% \\"SMS\\".AppImage" --hidden');
  });

  it('leaves macOS and Windows to Electron’s login items, Windows with the hidden flag', async () => {
    const expected = { darwin: { openAtLogin: true }, win32: { openAtLogin: true, args: ['--hidden'] } };
    for (const platform of ['darwin', 'win32'] as const) {
      const app = new FakeApp();
      const written: string[] = [];
      await applyStartAtLogin(true, {
        platform,
        env: {},
        execPath: 'x',
        setLoginItemSettings: (settings) => app.setLoginItemSettings(settings),
        writeFile: async (path) => {
          written.push(path);
        },
        removeFile: async () => undefined,
      });
      expect(app.loginItem).toEqual(expected[platform]);
      expect(written).toEqual([]);
    }
  });

  it('starts to the tray when started at login, and shows the window otherwise', () => {
    const never = () => false;
    expect(startsHidden(['/opt/app', '--hidden'], 'win32', never)).toBe(true);
    expect(startsHidden(['/opt/app', '--hidden'], 'linux', never)).toBe(true);
    expect(startsHidden(['/opt/app'], 'darwin', () => true)).toBe(true);
    expect(startsHidden(['/opt/app'], 'darwin', never)).toBe(false);
    expect(startsHidden(['/opt/app'], 'win32', () => true)).toBe(false);
  });

  it('keeps the hidden flag away from the core’s strict parser', () => {
    expect(coreArguments(['--hidden', '--simulate']).kept).toEqual(['--simulate']);
  });
});
