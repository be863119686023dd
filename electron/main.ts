import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  type IpcMainInvokeEvent,
  ipcMain,
  Menu,
  Notification,
  powerMonitor,
  powerSaveBlocker,
  session,
  shell,
  utilityProcess,
} from 'electron';
import electronUpdater from 'electron-updater';
import { systemClock } from '../server/clock/clock.js';
import { ErrorCode, GatewayError } from '../server/errors/gatewayError.js';
import { consoleSink, createLogger } from '../server/logging/logger.js';
import { browserProfileFolder, desktopShellFolder, linuxLogFolder } from './appFolders.js';
import { productName } from './appIdentity.js';
import { applicationMenu } from './applicationMenu.js';
import { coreUrlOf, runningServiceAt } from './attachedCore.js';
import { type Attention, AttentionWatch } from './attentionWatch.js';
import { CleanShutdown } from './cleanShutdown.js';
import { handleCloseRequests } from './closeRequest.js';
import { coreArguments, withPreferences } from './coreArguments.js';
import { CoreNotices, incomingNotice, type Notice } from './coreStatus.js';
import { CoreSupervisor } from './coreSupervisor.js';
import { applyAppIdentity, bringToFront, onAllWindowsClosed } from './desktopShell.js';
import { type FailureAction, FailureWindow, resolveStartFailure } from './failureDialog.js';
import { FirstRunLoginHolder } from './firstRunLogin.js';
import { nextFreePort } from './freePort.js';
import { IpcChannel } from './ipcChannels.js';
import { applyStartAtLogin, nodeLoginItemFiles, startsHidden } from './loginItem.js';
import { nativeTray } from './nativeTray.js';
import { PreferencesFile } from './preferences.js';
import { RotatingLogFile } from './rotatingLogFile.js';
import { handleSecondStarts, runsTheApp, secondStartData } from './secondStart.js';
import { SleepGuard } from './sleepGuard.js';
import { needsAPerson } from './startFailure.js';
import { GatewayTray } from './tray.js';
import { UpdateInstaller } from './updates.js';
import { WindowRecovery } from './windowRecovery.js';
import { isOwnUiUrl, lockDownSession, lockDownWindow } from './windowSecurity.js';

const here = dirname(fileURLToPath(import.meta.url));
const resources = join(here, '..', '..', 'resources');
// Before `ready`, so Chromium opens its profile there (appFolders.ts).
app.setPath('sessionData', browserProfileFolder(process.platform, process.env));
// One name everywhere, and the shell's files in their own folder inside the data folder; before
// the single-instance lock, which lives there. Electron refuses a userData folder that is not there.
const earlierUserData = app.getPath('userData');
app.setName(productName);
const shellFolder = desktopShellFolder(process.platform, process.env);
mkdirSync(shellFolder, { recursive: true });
app.setPath('userData', shellFolder);
// The OS's log folder: a packaged app has no console, so both processes log to files.
app.setAppLogsPath(linuxLogFolder(process.platform, process.env));
const logsFolder = app.getPath('logs');
const desktopLog = new RotatingLogFile(logsFolder, 'desktop');
const coreLog = new RotatingLogFile(logsFolder, 'core');
const logger = createLogger({ level: 'INFO', sinks: [consoleSink(), consoleSink(desktopLog)] }, 'desktop');
const openLogsFolder = () => {
  void shell.openPath(logsFolder).then((problem) => {
    if (problem) logger.warn('cannot open the logs folder', { folder: logsFolder, problem });
  });
};

if (!runsTheApp(process.argv, app.requestSingleInstanceLock(secondStartData(process.argv)))) {
  // Another instance owns the data folder and the port: it shows its window, or quits on --quit
  // (second-instance); or this was a --quit with no app running.
  app.quit();
} else {
  let window: BrowserWindow | undefined;
  let quitting = false;
  const preferences = new PreferencesFile(shellFolder, earlierUserData);
  // Only the gateway's own flags reach the core (`npm start -- --simulate`); see coreArguments.ts.
  const { kept, dropped } = coreArguments(process.argv.slice(1));
  if (dropped.length > 0) logger.info('arguments not for the gateway core', { dropped });
  const core = new CoreSupervisor({
    fork: (modulePath, args, options) => utilityProcess.fork(modulePath, args, options),
    entry: join(here, 'coreProcess.js'),
    args: () => withPreferences(kept, preferences.values),
    clock: systemClock,
    logger,
    output: (chunk) => {
      coreLog.write(chunk);
      if (!app.isPackaged) process.stderr.write(chunk);
    },
  });

  const cleanShutdown = new CleanShutdown({
    coreRunning: () => core.running,
    stopCore: () => core.stop(),
    quit: () => app.quit(),
    exit: () => app.exit(0),
    clock: systemClock,
    logger,
  });
  const updates = new UpdateInstaller({
    updater: () => electronUpdater.autoUpdater,
    // electron-builder writes app-update.yml only for a build with a `publish` feed.
    feedConfigured: app.isPackaged && existsSync(join(process.resourcesPath, 'app-update.yml')),
    clock: systemClock,
    logger: logger.child('updates'),
    notify: (notice) => notify(notice),
    prepareToQuit: () => {
      quitting = true;
    },
  });
  const attention = new AttentionWatch(() => systemClock.now());
  /** The tray, once Electron is ready; problems shown there and, if wanted, notified. */
  let showAttention: (seen: Attention) => void = () => undefined;
  core.on('health', (health) => {
    updates.queueChanged(health.pending);
    sleepGuard?.queueChanged(health.pending);
    showAttention(attention.update(health));
  });
  core.on('state', (state) => {
    if (state.kind === 'running') return;
    updates.queueChanged(undefined);
    sleepGuard?.queueChanged(undefined);
    showAttention(attention.update(undefined));
  });
  /** Made once Electron is ready (powerMonitor and powerSaveBlocker need it). */
  let sleepGuard: SleepGuard | undefined;
  const firstRunLogin = new FirstRunLoginHolder();
  core.on('ready', (ready) => firstRunLogin.offer(ready));
  /** A gateway service found running at start (attachedCore.ts): the window shows it. */
  let attachedTo: string | undefined;
  const baseUrl = () => core.connection?.baseUrl ?? attachedTo;

  /** IPC is answered only for our own UI page, never for anything else that got loaded. */
  const fromOwnUi = (event: IpcMainInvokeEvent) => {
    const base = baseUrl();
    const url = event.senderFrame?.url ?? '';
    if (!base || !isOwnUiUrl(url, base)) {
      throw new GatewayError(ErrorCode.Forbidden, 'IPC refused: the sender is not the gateway UI');
    }
  };

  ipcMain.handle(IpcChannel.getConnection, async (event) => {
    fromOwnUi(event);
    const base = baseUrl();
    if (!base) throw new GatewayError(ErrorCode.CoreUnavailable, 'the gateway core is not running');
    return { baseUrl: base, token: await core.requestSessionToken() };
  });
  ipcMain.handle(IpcChannel.getPreferences, (event) => {
    fromOwnUi(event);
    return preferences.values;
  });
  ipcMain.handle(IpcChannel.setPreference, async (event, key: unknown, value: unknown) => {
    fromOwnUi(event);
    const before = preferences.values;
    const updated = await preferences.set(key, value);
    if (updated.startAtLogin !== before.startAtLogin) await startAtLogin(updated.startAtLogin);
    sleepGuard?.setEnabled(updated.keepAwakeWhileQueued);
    // The window reloads from the new address when the restarted core is ready.
    if (updated.listenPort !== before.listenPort || updated.useSimulator !== before.useSimulator) {
      void core.restart();
    }
    return updated;
  });
  ipcMain.handle(IpcChannel.getFirstRunLogin, (event) => {
    fromOwnUi(event);
    return firstRunLogin.pending;
  });
  ipcMain.handle(IpcChannel.confirmFirstRunLoginSaved, (event) => {
    fromOwnUi(event);
    firstRunLogin.saved();
  });
  ipcMain.handle(IpcChannel.openApiDocs, async (event) => {
    fromOwnUi(event);
    const base = baseUrl();
    if (base) await shell.openExternal(`${base}/docs`);
  });

  const notify = (notice: Notice) => {
    if (!Notification.isSupported()) return;
    const notification = new Notification(notice);
    // macOS shows notifications only from a code-signed app (Electron 42 moved to
    // UNNotification, docs/breaking-changes.md); say why one is missing instead of nothing.
    notification.on('failed', (_event, error) => logger.warn('notification not shown', { error }));
    notification.show();
  };

  /** At most one failure window; it closes by itself when a later attempt starts the core. */
  const failureWindow = new FailureWindow((failure, options) =>
    resolveStartFailure(
      failure,
      {
        showMessageBox: (box) => dialog.showMessageBox(box),
        nextFreePort: (port) => nextFreePort('127.0.0.1', port),
        saveListenPort: async (port) => {
          await preferences.set('listenPort', port);
        },
        restartCore: () => core.restart(),
        openExternal: (url) => shell.openExternal(url),
        quit: () => app.quit(),
      },
      options,
    ).catch((error: unknown): FailureAction => {
      logger.error('the failure window could not carry out the choice', { error });
      return { kind: 'keep-trying' };
    }),
  );

  const showWindow = () => {
    if (!window) createWindow();
    if (window) bringToFront(window);
  };

  const createWindow = () => {
    window = new BrowserWindow({
      width: 1280,
      height: 800,
      minWidth: 1024,
      minHeight: 700,
      title: 'Desktop SMS Gateway',
      icon: join(resources, 'icon.png'),
      show: false,
      webPreferences: {
        // A service's UI signs in like a browser: the bridge hands out only this app's core's tokens.
        ...(attachedTo ? {} : { preload: join(here, 'preload.cjs') }),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        spellcheck: false,
        // No developer tools for users of the packaged app (applicationMenu.ts).
        devTools: !app.isPackaged,
      },
    });
    lockDownWindow(window, baseUrl);
    cleanShutdown.watchWindow(window);
    const recovery = new WindowRecovery(window.webContents, { clock: systemClock, logger, notify });
    window.once('ready-to-show', () => {
      if (showWhenLoaded) window?.show();
    });
    handleCloseRequests(window, {
      // A session end or shutdown closes windows too: hiding instead would hold it up.
      quitting: () => quitting || cleanShutdown.inProgress,
      closeToTray: () => preferences.values.closeToTray,
      quit: () => app.quit(),
      logger,
    });
    window.on('closed', () => {
      recovery.dispose();
      window = undefined;
    });
    const base = baseUrl();
    if (base) void window.loadURL(`${base}/ui/`);
  };
  /**
   * The first page load shows the window, unless the app started at login: then it waits in the
   * tray. It exists, hidden, from the start: Windows sends its session-end only to apps with a
   * top-level window (cleanShutdown.ts).
   */
  const showWhenLoaded = !startsHidden(
    process.argv,
    process.platform,
    () => app.getLoginItemSettings().wasOpenedAtLogin,
  );

  applyAppIdentity(app, process.platform);
  handleSecondStarts(app, { showWindow, quit: () => app.quit(), logger });
  // macOS: a click on the dock icon (or opening the app again) shows the window.
  app.on('activate', () => {
    if (baseUrl()) showWindow();
  });
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('window-all-closed', () => onAllWindowsClosed(preferences.values.closeToTray, () => app.quit()));
  const startAtLogin = (enabled: boolean) =>
    applyStartAtLogin(enabled, {
      platform: process.platform,
      env: process.env,
      execPath: process.execPath,
      setLoginItemSettings: (settings) => app.setLoginItemSettings(settings),
      ...nodeLoginItemFiles,
    }).catch((error: unknown) => logger.warn('cannot change start at login', { error }));

  app
    .whenReady()
    .then(async () => {
      Menu.setApplicationMenu(
        Menu.buildFromTemplate(
          applicationMenu(process.platform, app.isPackaged, {
            openLogsFolder,
            openApiDocs: () => {
              const base = baseUrl();
              if (base) void shell.openExternal(`${base}/docs`);
            },
          }),
        ),
      );
      cleanShutdown.watchPowerMonitor(powerMonitor);
      sleepGuard = new SleepGuard({
        blocker: powerSaveBlocker,
        powerMonitor,
        recheckModems: () => core.send({ type: 'recheck-modems' }),
        logger,
      });
      const loaded = await preferences.load();
      attachedTo = await runningServiceAt(coreUrlOf(withPreferences(kept, loaded), process.env));
      createWindow();
      sleepGuard.setEnabled(loaded.keepAwakeWhileQueued);
      await startAtLogin(loaded.startAtLogin);
      const tray = new GatewayTray(nativeTray(resources, process.platform), {
        toggleWindow: () => (window?.isVisible() && !window.isMinimized() ? window.hide() : showWindow()),
        setSendingPaused: (paused) => core.send({ type: 'set-sending-paused', paused }),
        retryNow: () => core.retryNow(),
        stopRetrying: () => core.stopRetrying(),
        openLogsFolder,
        quit: () => app.quit(),
      });
      showAttention = ({ alerts, notices }) => {
        tray.showAlerts(alerts);
        if (preferences.values.notifyOnProblems) for (const notice of notices) notify(notice);
      };
      setInterval(() => showAttention(attention.tick()), 60_000);
      const coreNotices = new CoreNotices(coreLog.path);
      core.on('state', (state) => {
        tray.showCore(state);
        // Windows taskbar, macOS dock: an indeterminate bar while a migration holds the start
        // (docs/api/browser-window.md, setProgressBar: "indeterminate mode when progress > 1").
        window?.setProgressBar(state.kind === 'starting' && state.upgrade ? 2 : -1);
        const notice = coreNotices.noticeFor(state);
        if (notice && preferences.values.notifyOnProblems) notify(notice);
        if (state.kind === 'running') failureWindow.close();
      });
      core.on('sending-paused', (paused) => tray.showPaused(paused));
      // A (re)started core reports its pause (kept across restarts) right after `ready`.
      core.on('ready', ({ baseUrl: base }) => {
        lockDownSession(session.defaultSession, baseUrl);
        if (!window) createWindow();
        void window?.loadURL(`${base}/ui/`);
      });
      core.on('incoming', ({ sender, preview }) => {
        const { notifyOnIncoming, showSmsPreviews } = preferences.values;
        if (notifyOnIncoming) notify(incomingNotice(sender, preview, showSmsPreviews));
      });
      core.on('start-failed', (failure) => {
        logger.error('the gateway core could not start', { ...failure });
        failureWindow.show(failure, {
          retrying: !needsAPerson(failure),
          log: { file: coreLog.path, lastLines: coreLog.lastLines(8) },
        });
      });
      if (attachedTo) {
        logger.info('a gateway service runs already; showing it instead of starting one', {
          url: attachedTo,
        });
        tray.showAttached(attachedTo);
        lockDownSession(session.defaultSession, baseUrl);
        void window?.loadURL(`${attachedTo}/ui/`);
      } else core.start();
      updates.start();
    })
    .catch((error: unknown) => {
      // Reading the preferences failed: say so in the log rather than as an unhandled rejection.
      logger.error('the desktop shell could not start', { error });
    });

  app.on('will-quit', cleanShutdown.onWillQuit);
}
