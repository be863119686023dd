import type { Logger } from '../server/logging/logger.js';

/** Electron's preventable Event, as `shutdown`, `query-session-end` and `will-quit` hand it. */
export interface PreventableEvent {
  preventDefault(): void;
}

type Listener = (event: PreventableEvent) => void;

/**
 * The gateway stops cleanly (queue state, journals, lock file, modem ports closed) however the
 * app ends: Quit, the OS shutting down or restarting, the user logging off. Every path shares one
 * stop of the core, then exits.
 *
 * - Quit (`app` `will-quit`): held until the core stopped.
 * - Linux, macOS: powerMonitor `shutdown` — "If the event handler invokes e.preventDefault(),
 *   Electron will attempt to delay system shutdown in order for the app to exit cleanly"
 *   (docs/api/power-monitor.md).
 * - Windows: BrowserWindow `query-session-end` (shutdown, restart, log-off; "Calling
 *   event.preventDefault() can delay the system shutdown") starts the stop early; `session-end`
 *   ("there is no way to prevent the session from ending") starts it if that was missed
 *   (docs/api/browser-window.md). Windows sends both only to apps with a top-level window,
 *   which the app keeps (hidden in the tray) while it runs.
 */
export class CleanShutdown {
  private stopping?: Promise<void>;

  constructor(
    private readonly deps: {
      coreRunning(): boolean;
      stopCore(): Promise<void>;
      /** `app.exit(0)`: ends without emitting `will-quit` again. */
      exit(): void;
      logger: Logger;
    },
  ) {}

  get inProgress(): boolean {
    return this.stopping !== undefined;
  }

  /** electron.d.ts types this listener without the event its docs describe: hence optional. */
  watchPowerMonitor(powerMonitor: {
    on(event: 'shutdown', listener: (event?: PreventableEvent) => void): unknown;
  }): void {
    powerMonitor.on('shutdown', (event) => {
      event?.preventDefault();
      void this.stopThenExit('the system is shutting down');
    });
  }

  watchWindow(window: {
    on(event: 'query-session-end', listener: Listener): unknown;
    on(event: 'session-end', listener: Listener): unknown;
  }): void {
    window.on('query-session-end', (event) => this.hold(event, 'the Windows session is ending'));
    window.on('session-end', () => void this.stopThenExit('the Windows session ended'));
  }

  /** For `app.on('will-quit')`. */
  readonly onWillQuit = (event: PreventableEvent): void => {
    if (!this.deps.coreRunning() && !this.stopping) return;
    this.hold(event, 'quit');
  };

  private hold(event: PreventableEvent, reason: string): void {
    event.preventDefault();
    void this.stopThenExit(reason);
  }

  private stopThenExit(reason: string): Promise<void> {
    if (!this.stopping) {
      this.deps.logger.info('stopping the gateway', { reason });
      this.stopping = this.deps
        .stopCore()
        .catch((error: unknown) => this.deps.logger.error('the gateway did not stop cleanly', { error }))
        .finally(() => this.deps.exit());
    }
    return this.stopping;
  }
}
