import type { Logger } from '../server/logging/logger.js';

/**
 * The argument the installer of an upgrade and the uninstaller start the app with
 * (resources/installer.nsh): "stop cleanly, the files are about to be replaced".
 */
export const quitFlag = '--quit';

/**
 * Whether this start runs the app. A second start hands its arguments to the running app
 * through the single-instance lock and ends; a start with `--quit` that got the lock found no
 * app running, so there is nothing to stop, and it ends too.
 */
export function runsTheApp(argv: readonly string[], holdsLock: boolean): boolean {
  return holdsLock && !argv.includes(quitFlag);
}

/**
 * What a start hands the running app with `app.requestSingleInstanceLock(additionalData)`:
 * Chromium may add to or reorder a second start's command line on Windows (docs/api/app.md,
 * `second-instance`), so the request travels as data too.
 */
export interface SecondStartData {
  quit: boolean;
}

export function secondStartData(argv: readonly string[]): SecondStartData {
  return { quit: argv.includes(quitFlag) };
}

/** The part of Electron's `app` a second start reaches (docs/api/app.md, event `second-instance`). */
export interface SecondStartSource {
  on(
    event: 'second-instance',
    listener: (
      event: unknown,
      commandLine: string[],
      workingDirectory: string,
      additionalData: unknown,
    ) => void,
  ): unknown;
}

/**
 * A second start shows the window; one with `--quit` quits the running app, which stops the
 * core cleanly on the way out (cleanShutdown.ts) — where the installer's own way to close it,
 * PowerShell's Stop-Process, is an immediate kill.
 */
export function handleSecondStarts(
  app: SecondStartSource,
  deps: { showWindow(): void; quit(): void; logger: Logger },
): void {
  app.on('second-instance', (_event, commandLine, _workingDirectory, additionalData) => {
    const data = additionalData as Partial<SecondStartData> | undefined;
    if (data?.quit === true || commandLine.includes(quitFlag)) {
      deps.logger.info('a second start asked the app to quit (an installer or uninstaller)');
      deps.quit();
      return;
    }
    deps.showWindow();
  });
}
