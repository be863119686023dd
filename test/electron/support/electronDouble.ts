/**
 * A small double of the Electron main-process APIs the desktop app uses, written from Electron's
 * documentation (https://www.electronjs.org/docs/latest/api/…), so the logic behind them runs
 * under plain Node (the Electron binary cannot be downloaded on the build machines):
 *
 * - utilityProcess (api/utility-process.md): `fork()` returns an EventEmitter child with
 *   `postMessage(message)`, `kill()` ("Terminates the process gracefully"; the `exit` event
 *   follows with the exit code) and events `message` and `exit`; with `stdio: 'pipe'`, its
 *   `stdout` and `stderr` are readable streams of what the process writes.
 * - powerMonitor (api/power-monitor.md): event `shutdown` (Linux, macOS) whose handler may call
 *   `e.preventDefault()` to delay the shutdown; the app should then quit as soon as possible.
 * - BrowserWindow (api/browser-window.md), Windows: `query-session-end` (preventable, delays
 *   the shutdown) then `session-end` ("there is no way to prevent the session from ending").
 * - BrowserWindow (api/browser-window.md): `isMinimized()`, `restore()` ("Restores the window
 *   from minimized state"), `show()` (does not un-minimise), `focus()`.
 * - app (api/app.md): `setAppUserModelId(id)` (Windows), `setLoginItemSettings({ openAtLogin,
 *   args })` (macOS, Windows; no effect on Linux; `args` on Windows only),
 *   `getLoginItemSettings().wasOpenedAtLogin` (macOS).
 * - dialog (api/dialog.md): `showMessageBox(options)` shows one box with `buttons` and resolves
 *   with `{ response }`, the index of the clicked button (`cancelId` for Escape); an aborted
 *   `signal` closes it "as if it was cancelled by the user".
 * - webContents (api/web-contents.md): event `render-process-gone` with `details` (`reason`:
 *   `clean-exit`, `abnormal-exit`, `killed`, `crashed`, `oom`, `launch-failed`, …; `exitCode`),
 *   events `unresponsive` and `responsive`; `reload()`; `forcefullyCrashRenderer()`
 *   ("Forcefully terminates the renderer process… This will cause the render-process-gone event
 *   to be emitted with the reason=killed || reason=crashed").
 * - BrowserWindow (api/browser-window.md): event `close` ("Calling event.preventDefault() will
 *   cancel the close"), `isVisible()`, `hide()`.
 * - electron-updater's `autoUpdater` (electron-builder docs, "Auto Update"; AppUpdater.d.ts):
 *   `autoDownload`, `autoInstallOnAppQuit`, `checkForUpdates()`, `quitAndInstall(isSilent,
 *   isForceRunAfter)`, events `update-downloaded` (with `version`) and `error`.
 * - powerSaveBlocker (api/power-save-blocker.md): `start(type)` answers an id, `stop(id)`;
 *   powerMonitor (api/power-monitor.md) event `resume`.
 * - Tray (api/tray.md): `setToolTip(toolTip)`, `setImage(image)`, `setContextMenu(menu)` with a
 *   menu from `Menu.buildFromTemplate(template)` (api/menu.md), event `click`.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { MainToCore } from '../../../electron/coreMessages.js';
import type { CoreChild, ForkCore } from '../../../electron/coreSupervisor.js';
import type { TrayWidget } from '../../../electron/tray.js';
import type { TrayMenuItem } from '../../../electron/trayMenu.js';

/** What utilityProcess.fork returned, driven by the test. */
export class FakeUtilityProcess extends EventEmitter implements CoreChild {
  readonly posted: MainToCore[] = [];
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  killed = false;
  exitCode?: number;

  constructor(
    readonly modulePath: string,
    readonly args: string[],
  ) {
    super();
  }

  postMessage(message: MainToCore): void {
    if (this.exitCode !== undefined) return;
    this.posted.push(message);
  }

  kill(): boolean {
    if (this.exitCode !== undefined) return false;
    this.killed = true;
    // A POSIX SIGTERM ends the process; `exit` follows asynchronously.
    queueMicrotask(() => this.exit(143));
    return true;
  }

  /** The core posts to the main process (`process.parentPort.postMessage`). */
  reply(message: unknown): void {
    this.emit('message', message);
  }

  /** What the core prints before it exits (a stack trace when it dies while loading). */
  writeStderr(text: string): void {
    this.stderr.write(text);
  }

  exit(code: number): void {
    if (this.exitCode !== undefined) return;
    this.exitCode = code;
    this.emit('exit', code);
  }
}

export function fakeUtilityProcess(): { fork: ForkCore; children: FakeUtilityProcess[] } {
  const children: FakeUtilityProcess[] = [];
  return {
    children,
    fork: (modulePath, args) => {
      const child = new FakeUtilityProcess(modulePath, args);
      children.push(child);
      return child;
    },
  };
}

interface MessageBoxOptions {
  message: string;
  detail: string;
  buttons: string[];
  cancelId: number;
  signal?: AbortSignal;
}

/**
 * dialog.showMessageBox that records each box and clicks the button the test names. `click`
 * answering `'wait'` leaves the box open until its `signal` aborts it.
 */
export function fakeDialog(click: (buttons: string[]) => string | undefined) {
  const shown: MessageBoxOptions[] = [];
  return {
    shown,
    showMessageBox: async (options: MessageBoxOptions) => {
      shown.push(options);
      const label = click(options.buttons);
      if (label === 'wait') {
        const { signal } = options;
        if (!signal) throw new Error('a box left open needs a signal to close it');
        if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve));
        return { response: options.cancelId };
      }
      const index = label === undefined ? -1 : options.buttons.indexOf(label);
      return { response: index === -1 ? options.cancelId : index };
    },
  };
}

/** The app's tray icon: what it shows now, and its menu's items to click. */
export class FakeTray implements TrayWidget {
  toolTip = '';
  alert = false;
  menu: TrayMenuItem[] = [];
  private readonly clicks = new EventEmitter();

  setToolTip(text: string): void {
    this.toolTip = text;
  }
  setAlert(alert: boolean): void {
    this.alert = alert;
  }
  setMenu(items: TrayMenuItem[]): void {
    this.menu = items;
  }
  onClick(listener: () => void): void {
    this.clicks.on('click', listener);
  }
  clickIcon(): void {
    this.clicks.emit('click');
  }
  labels(): string[] {
    return this.menu.flatMap((item) => ('label' in item ? [item.label] : []));
  }
  /** Clicks the enabled menu item with this label; fails the test when there is none. */
  choose(label: string): void {
    const item = this.menu.find((entry) => 'label' in entry && entry.label === label);
    if (!item || !('click' in item))
      throw new Error(`no menu item "${label}" in ${this.labels().join(' | ')}`);
    item.click();
  }
}

/** Electron's preventable Event, as handed to `shutdown`, `query-session-end` and `will-quit`. */
export class FakeEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

/** powerMonitor and BrowserWindow are EventEmitters; the test emits their events. */
export class FakeEmitter extends EventEmitter {
  /** Emits `event` with a fresh FakeEvent and returns it. */
  fire(event: string): FakeEvent {
    const fired = new FakeEvent();
    this.emit(event, fired);
    return fired;
  }
}

export class FakeWindow {
  minimized = false;
  visible = false;
  focused = false;

  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
    this.visible = true;
  }
  show(): void {
    // Showing a minimised window leaves it minimised, as on every desktop.
    this.visible = true;
  }
  focus(): void {
    this.focused = true;
  }
}

export class FakeApp {
  appUserModelId?: string;
  loginItem?: { openAtLogin: boolean; args?: string[] };

  setAppUserModelId(id: string): void {
    this.appUserModelId = id;
  }
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void {
    this.loginItem = settings;
  }
}

/** A window's webContents whose renderer the test crashes or hangs. */
export class FakeWebContents extends EventEmitter {
  reloads = 0;
  /** Alive, hung or gone: what the renderer process is doing. */
  renderer: 'alive' | 'hung' | 'gone' = 'alive';

  reload(): void {
    this.reloads++;
    this.renderer = 'alive';
  }

  forcefullyCrashRenderer(): void {
    this.renderer = 'gone';
    queueMicrotask(() => this.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 }));
  }

  crash(reason: string): void {
    this.renderer = 'gone';
    this.emit('render-process-gone', {}, { reason, exitCode: reason === 'clean-exit' ? 0 : 139 });
  }

  hang(): void {
    this.renderer = 'hung';
    this.emit('unresponsive');
  }

  recover(): void {
    this.renderer = 'alive';
    this.emit('responsive');
  }
}

/** A BrowserWindow as the close handling sees it; `requestClose` is a close from anywhere. */
export class FakeBrowserWindow extends FakeEmitter {
  visible = true;
  closed = false;

  isVisible(): boolean {
    return this.visible;
  }
  hide(): void {
    this.visible = false;
  }
  /** The title bar's X, or WM_CLOSE from taskkill: `close`, and the window goes unless prevented. */
  requestClose(): FakeEvent {
    const event = this.fire('close');
    if (!event.defaultPrevented) this.closed = true;
    return event;
  }
}

/** electron-updater's autoUpdater with a feed the test controls. */
export class FakeAutoUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  checks = 0;
  installs: { isSilent?: boolean; isForceRunAfter?: boolean }[] = [];

  async checkForUpdates(): Promise<null> {
    this.checks++;
    return null;
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push({ isSilent, isForceRunAfter });
  }
  /** The feed had a newer version and its download finished. */
  downloaded(version: string): void {
    this.emit('update-downloaded', { version });
  }
}

/** powerSaveBlocker: which blockers are held now. */
export class FakePowerSaveBlocker {
  private nextId = 1;
  readonly held = new Map<number, string>();

  start(type: 'prevent-app-suspension'): number {
    const id = this.nextId++;
    this.held.set(id, type);
    return id;
  }
  stop(id: number): boolean {
    return this.held.delete(id);
  }
}
