import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handleCloseRequests } from '../../electron/closeRequest.js';
import { coreHealthOf } from '../../electron/coreHealth.js';
import { CoreNotices, coreStatusLine } from '../../electron/coreStatus.js';
import type { CoreState } from '../../electron/coreSupervisor.js';
import { failureDialog } from '../../electron/failureDialog.js';
import { handleSecondStarts, quitFlag, runsTheApp, secondStartData } from '../../electron/secondStart.js';
import { classifyStartFailure } from '../../electron/startFailure.js';
import { UpdateInstaller } from '../../electron/updates.js';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ErrorCode, GatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import type { HealthReport } from '../../server/services/health/healthService.js';
import { FakeAutoUpdater, FakeBrowserWindow, FakeEmitter } from './support/electronDouble.js';
import { supervisedCore } from './support/supervisedCore.js';

function closable(options: { closeToTray?: boolean; quitting?: boolean } = {}) {
  const window = new FakeBrowserWindow();
  const quits: string[] = [];
  handleCloseRequests(window, {
    quitting: () => options.quitting ?? false,
    closeToTray: () => options.closeToTray ?? true,
    quit: () => quits.push('quit'),
    logger: silentLogger,
  });
  return { window, quits };
}

describe('the installer’s close request', () => {
  it('quits the app when it reaches the window hidden in the tray', () => {
    const { window, quits } = closable();
    window.visible = false;
    expect(window.requestClose().defaultPrevented).toBe(true);
    expect(quits).toEqual(['quit']);
  });

  it('hides the visible window a person closes, and quits on the installer’s second request', () => {
    const { window, quits } = closable();
    window.requestClose();
    expect([window.visible, window.closed, quits]).toEqual([false, false, []]);
    window.requestClose();
    expect(quits).toEqual(['quit']);
  });

  it('lets the window close while the app quits, or when close-to-tray is off', () => {
    expect(closable({ quitting: true }).window.requestClose().defaultPrevented).toBe(false);
    const untrayed = closable({ closeToTray: false });
    expect(untrayed.window.requestClose().defaultPrevented).toBe(false);
    expect(untrayed.quits).toEqual([]);
  });
});

describe('the installer’s request to quit', () => {
  function running() {
    const app = new FakeEmitter();
    const steps: string[] = [];
    handleSecondStarts(app, {
      showWindow: () => steps.push('show'),
      quit: () => steps.push('quit'),
      logger: silentLogger,
    });
    return { app, steps };
  }

  it('ends a start with --quit at once: it hands the request over, or finds nothing to stop', () => {
    const argv = ['C:\\Program Files\\Desktop SMS Gateway\\Desktop SMS Gateway.exe', quitFlag];
    expect(runsTheApp(argv, false)).toBe(false);
    expect(runsTheApp(argv, true)).toBe(false);
    expect(runsTheApp([argv[0] ?? ''], true)).toBe(true);
    expect(secondStartData(argv)).toEqual({ quit: true });
  });

  it('quits the running app on --quit, by its data even when Chromium rewrote the command line', () => {
    const { app, steps } = running();
    // Electron's order (docs/api/app.md): event, commandLine, workingDirectory, additionalData.
    app.emit('second-instance', {}, ['app.exe', '--allow-file-access-from-files'], 'C:\\', { quit: true });
    app.emit('second-instance', {}, ['app.exe', quitFlag], 'C:\\', undefined);
    expect(steps).toEqual(['quit', 'quit']);
  });

  it('shows the window on a plain second start', () => {
    const { app, steps } = running();
    app.emit('second-instance', {}, ['app.exe'], 'C:\\', { quit: false });
    expect(steps).toEqual(['show']);
  });

  it('is what the installer sends before electron-builder’s own check, whose macros it uses', () => {
    const script = readFileSync(join(import.meta.dirname, '..', '..', 'resources', 'installer.nsh'), 'utf8');
    const macro = script.slice(script.indexOf('!macro customCheckAppRunning'), script.indexOf('!macroend'));
    const asked = macro.indexOf(`ExecWait '"$INSTDIR\\\${APP_EXECUTABLE_FILENAME}" ${quitFlag}'`);
    expect(asked).toBeGreaterThan(0);
    expect(macro.indexOf('!insertmacro _CHECK_APP_RUNNING')).toBeGreaterThan(asked);
    // The electron-builder this project installs defines each macro the script inserts, and
    // includes installer.nsh from the build resources by default.
    const builderLib = dirname(createRequire(import.meta.url).resolve('app-builder-lib/package.json'));
    const template = readFileSync(
      join(builderLib, 'templates', 'nsis', 'include', 'allowOnlyOneInstallerInstance.nsh'),
      'utf8',
    );
    for (const inserted of macro.matchAll(/!insertmacro (\w+)/g))
      expect(template).toContain(`!macro ${inserted[1]}`);
    expect(template).toContain('!ifmacrodef customCheckAppRunning');
    expect(readFileSync(join(builderLib, 'out', 'targets', 'nsis', 'NsisTarget.js'), 'utf8')).toContain(
      'getResource(this.options.include, "installer.nsh")',
    );
  });
});

function updates(feedConfigured: boolean) {
  const clock = new ManualClock();
  const updater = new FakeAutoUpdater();
  const steps: string[] = [];
  let loaded = false;
  const installer = new UpdateInstaller({
    updater: () => {
      loaded = true;
      return updater;
    },
    feedConfigured,
    clock,
    logger: silentLogger,
    notify: (notice) => steps.push(`notify ${notice.title}`),
    prepareToQuit: () => steps.push('prepare to quit'),
    checkEveryMs: 3_600_000,
  });
  return { clock, updater, steps, installer, loaded: () => loaded };
}

describe('updates', () => {
  it('are off, without touching electron-updater, when the build names no feed', () => {
    const { installer, loaded } = updates(false);
    installer.start();
    expect([installer.enabled, loaded()]).toEqual([false, false]);
  });

  it('check the feed at start and every interval, downloading in the background', async () => {
    const { clock, updater, installer } = updates(true);
    installer.start();
    expect([updater.checks, updater.autoDownload, updater.autoInstallOnAppQuit]).toEqual([1, true, true]);
    await clock.advance(3_600_000);
    expect(updater.checks).toBe(2);
  });

  it('install only once no message waits for or is being handed to a modem', () => {
    const { updater, installer, steps } = updates(true);
    installer.start();
    installer.queueChanged(3);
    updater.downloaded('1.2.0');
    expect(updater.installs).toEqual([]);
    installer.queueChanged(undefined);
    expect(updater.installs).toEqual([]);
    installer.queueChanged(0);
    expect(updater.installs).toEqual([{ isSilent: true, isForceRunAfter: true }]);
    expect(steps).toEqual(['notify Updating Desktop SMS Gateway', 'prepare to quit']);
    installer.queueChanged(0);
    expect(updater.installs).toHaveLength(1);
  });

  it('read the queue from the core’s readiness report', () => {
    const report: HealthReport = {
      status: 'warn',
      version: '1.0.0',
      releaseId: 1,
      checks: {
        'messages:queue': {
          status: 'pass',
          observedValue: 4,
          observedUnit: 'messages',
          description: 'waiting',
        },
        'modems:real': { status: 'warn', observedValue: 0, observedUnit: 'modems', description: 'simulated' },
        'modems:connected': {
          status: 'fail',
          observedValue: 0,
          observedUnit: 'modems',
          description: '0 of 1 ready',
        },
      },
    };
    expect(coreHealthOf(report)).toEqual({
      pending: 4,
      problems: [{ check: 'modems:connected', status: 'fail', description: '0 of 1 ready' }],
    });
  });
});

describe('a downgrade', () => {
  it('is told plainly, offers no Try again, and waits for a person', async () => {
    const failure = classifyStartFailure(
      new GatewayError(
        ErrorCode.StoreNewerThanBuild,
        'the database has schema 14, newer than this build understands (13)',
      ),
      { port: 8080 },
    );
    expect(failure.kind).toBe('newer-data');
    const dialog = failureDialog(failure, { retrying: false });
    expect(dialog.message).toBe('This data was saved by a newer version of Desktop SMS Gateway.');
    expect(dialog.detail).toContain('Install the newer version again');
    expect(dialog.choices.map((choice) => choice.label)).toEqual(['Quit']);

    const { clock, electron, core } = supervisedCore();
    const states: CoreState[] = [];
    core.on('state', (state) => states.push(state));
    core.start();
    electron.children[0]?.reply({ type: 'start-failed', failure });
    await clock.advance(60 * 60_000);
    expect(electron.children).toHaveLength(1);
    expect(states.at(-1)).toMatchObject({ kind: 'stopped', reason: 'needs-a-person' });
  });
});

describe('a long schema migration', () => {
  it('shows in the tray’s status and in one notification naming the backup', () => {
    const { electron, core } = supervisedCore();
    const notices = new CoreNotices();
    const seen: string[] = [];
    core.on('state', (state) => {
      seen.push(coreStatusLine(state, String));
      const notice = notices.noticeFor(state);
      if (notice) seen.push(`notice: ${notice.body}`);
    });
    core.start();
    electron.children[0]?.reply({ type: 'schema-upgrade', from: 5, to: 13, backup: '/data/backups/b.db' });
    electron.children[0]?.reply({ type: 'ready', baseUrl: 'http://127.0.0.1:8080', sessionToken: 't' });
    expect(seen).toEqual([
      'Gateway starting…',
      'Gateway starting: updating its database (schema 5 → 13)…',
      expect.stringContaining('A copy from before is kept in /data/backups/b.db'),
      'Gateway running',
    ]);
  });
});
