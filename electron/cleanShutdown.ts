import type { Clock, TimerHandle } from '../server/clock/clock.js';
import type { Logger } from '../server/logging/logger.js';

/** Electron's preventable Event, as `shutdown`, `session-end` and `will-quit` hand it. */
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
 * - Windows: BrowserWindow `session-end` ("Emitted when window session is going to end due to
 *   force shutdown or machine restart or session log off"; "there is no way to prevent the
 *   session from ending", docs/api/browser-window.md). Electron ends the process as soon as
 *   that event's listeners return unless the app is quitting already, so the listener calls
 *   `app.quit()` before it returns: the quit's `will-quit` then holds the exit for the stop.
 *   Windows waits a few seconds for an app at log-off before it ends it, so the stop gets
 *   `sessionEndBudgetMs`; one that takes longer is left to the next start's crash recovery
 *   (no accepted message is lost that way either). Its question, `query-session-end`, is only
 *   logged: the shutdown may still be cancelled (by the user, or by another app), and a gateway
 *   stopped at the question would then be gone with the PC still running. Windows sends both
 *   only to apps with a top-level window, so main.ts creates the (hidden) window before the
 *   core starts and keeps it while the app runs.
 */
export class CleanShutdown {
  private stopping?: Promise<void>;

  constructor(
    private readonly deps: {
      coreRunning(): boolean;
      stopCore(): Promise<void>;
      /** `app.quit()`: the app is quitting from then on (`will-quit` follows). */
      quit(): void;
      /** `app.exit(0)`: ends without emitting `will-quit` again. */
      exit(): void;
      clock: Clock;
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
    window.on('query-session-end', () =>
      this.deps.logger.info('Windows asks whether the session may end; the gateway stops if it does'),
    );
    window.on('session-end', () => {
      void this.stopThenExit('the Windows session is ending', sessionEndBudgetMs);
      this.deps.quit();
    });
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

  /** Stops the core once, then exits; with a budget, exits when it runs out, stopped or not. */
  private stopThenExit(reason: string, budgetMs?: number): Promise<void> {
    if (!this.stopping) {
      this.deps.logger.info('stopping the gateway', { reason });
      const stopped = this.deps
        .stopCore()
        .catch((error: unknown) => this.deps.logger.error('the gateway did not stop cleanly', { error }));
      let timer: TimerHandle | undefined;
      const outOfTime = new Promise<void>((resolve) => {
        if (budgetMs === undefined) return;
        timer = this.deps.clock.setTimer(() => {
          this.deps.logger.warn(
            'the gateway did not stop in the time Windows gives; the next start recovers',
            {
              budgetMs,
            },
          );
          resolve();
        }, budgetMs);
      });
      this.stopping = Promise.race([stopped, outOfTime]).finally(() => {
        timer?.cancel();
        this.deps.exit();
      });
    }
    return this.stopping;
  }
}

/** What the stop may take at a Windows log-off or shutdown, inside the time Windows waits. */
export const sessionEndBudgetMs = 4_000;
