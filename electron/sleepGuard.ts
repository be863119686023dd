import type { Logger } from '../server/logging/logger.js';

/**
 * Electron's powerSaveBlocker (docs/api/power-save-blocker.md): `start(type)` answers an id,
 * `stop(id)` releases it. 'prevent-app-suspension' keeps the system awake and lets the screen
 * turn off ("Prevent the application from being suspended. Keeps system active but allows
 * screen to be turned off").
 */
export interface PowerSaveBlocker {
  start(type: 'prevent-app-suspension'): number;
  stop(id: number): boolean;
}

/** powerMonitor's `resume` ("Emitted when system is resuming", docs/api/power-monitor.md). */
export interface ResumeSource {
  on(event: 'resume', listener: () => void): unknown;
}

/**
 * A PC that sleeps stops the gateway. Unless the user turns it off (a preference, on by
 * default) the PC stays awake while messages wait to be sent, and only then; after a sleep, every modem checks at once that
 * it still answers (a USB modem may have been reset or re-enumerated meanwhile) rather than at
 * its next health round, minutes later.
 */
export class SleepGuard {
  private blockerId?: number;
  private enabled = false;
  private pending = 0;

  constructor(
    private readonly deps: {
      blocker: PowerSaveBlocker;
      powerMonitor: ResumeSource;
      recheckModems(): void;
      logger: Logger;
    },
  ) {
    deps.powerMonitor.on('resume', () => {
      deps.logger.info('the computer woke up; checking the modems');
      deps.recheckModems();
    });
  }

  /** The user's preference changed. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.apply();
  }

  /** The core's queue changed: messages waiting or being sent; undefined when no core runs. */
  queueChanged(pending: number | undefined): void {
    this.pending = pending ?? 0;
    this.apply();
  }

  get keepingAwake(): boolean {
    return this.blockerId !== undefined;
  }

  private apply(): void {
    const wanted = this.enabled && this.pending > 0;
    if (wanted && this.blockerId === undefined) {
      this.blockerId = this.deps.blocker.start('prevent-app-suspension');
      this.deps.logger.info('keeping the computer awake while messages are queued', {
        pending: this.pending,
      });
    } else if (!wanted && this.blockerId !== undefined) {
      this.deps.blocker.stop(this.blockerId);
      this.blockerId = undefined;
      this.deps.logger.info('the computer may sleep again');
    }
  }
}
