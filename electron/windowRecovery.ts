import type { Clock, TimerHandle } from '../server/clock/clock.js';
import type { Logger } from '../server/logging/logger.js';
import type { Notice } from './coreStatus.js';

/**
 * The part of Electron's `webContents` the recovery uses (docs/api/web-contents.md): events
 * `render-process-gone` (details `reason`, `exitCode`), `unresponsive`, `responsive`; `reload()`
 * and `forcefullyCrashRenderer()` ("This will cause the render-process-gone event to be emitted").
 */
export interface RecoverableContents {
  on(
    event: 'render-process-gone',
    listener: (event: unknown, details: { reason: string; exitCode: number }) => void,
  ): unknown;
  on(event: 'unresponsive' | 'responsive', listener: () => void): unknown;
  reload(): void;
  forcefullyCrashRenderer(): void;
}

export interface WindowRecoveryOptions {
  clock: Clock;
  logger: Logger;
  notify(notice: Notice): void;
  /** How long a hung page may take to answer again before its renderer is ended. */
  hangGraceMs?: number;
  /** Pause before the first reload; doubled for each crash within `calmAfterMs` of the last. */
  firstReloadDelayMs?: number;
  maxReloadDelayMs?: number;
  calmAfterMs?: number;
}

/**
 * Keeps a window that stays open for months usable: a renderer that crashed, was killed or ran
 * out of memory is reloaded, and a page that hangs past a grace period is ended and reloaded;
 * each time the user is told. Reloads after crashes in quick succession wait longer each time,
 * so a page that crashes at once does not spin the CPU.
 */
export class WindowRecovery {
  private crashesInARow = 0;
  private lastCrashAt?: number;
  private hangTimer?: TimerHandle;
  private reloadTimer?: TimerHandle;
  private endedForHang = false;

  constructor(
    private readonly contents: RecoverableContents,
    private readonly options: WindowRecoveryOptions,
  ) {
    contents.on('render-process-gone', (_event, details) => this.gone(details));
    contents.on('unresponsive', () => this.hung());
    contents.on('responsive', () => {
      this.hangTimer?.cancel();
      this.hangTimer = undefined;
    });
  }

  /** The window is closing for good: no reload is due any more. */
  dispose(): void {
    this.hangTimer?.cancel();
    this.reloadTimer?.cancel();
  }

  private hung(): void {
    if (this.hangTimer) return;
    this.options.logger.warn('the window stopped responding');
    this.hangTimer = this.options.clock.setTimer(() => {
      this.hangTimer = undefined;
      this.options.logger.warn('the window did not respond again; restarting it');
      this.endedForHang = true;
      this.contents.forcefullyCrashRenderer();
    }, this.options.hangGraceMs ?? 30_000);
  }

  private gone(details: { reason: string; exitCode: number }): void {
    this.hangTimer?.cancel();
    this.hangTimer = undefined;
    // A renderer that ended on its own terms (the window closing) needs nothing.
    if (details.reason === 'clean-exit') return;
    const hang = this.endedForHang;
    this.endedForHang = false;
    const now = this.options.clock.now();
    const calm = this.options.calmAfterMs ?? 10 * 60_000;
    if (this.lastCrashAt === undefined || now - this.lastCrashAt >= calm) this.crashesInARow = 0;
    this.lastCrashAt = now;
    this.crashesInARow++;
    const delayMs = Math.min(
      this.options.maxReloadDelayMs ?? 60_000,
      (this.options.firstReloadDelayMs ?? 1_000) * 2 ** Math.min(this.crashesInARow - 1, 20),
    );
    this.options.logger.error('the window’s page ended; reloading it', { ...details, delayMs });
    this.options.notify({
      title: 'Window reloaded',
      body: hang
        ? 'The gateway window stopped responding and was reloaded. Sending and receiving went on.'
        : `The gateway window stopped (${details.reason}) and was reloaded. Sending and receiving went on.`,
    });
    this.reloadTimer?.cancel();
    this.reloadTimer = this.options.clock.setTimer(() => {
      this.reloadTimer = undefined;
      this.contents.reload();
    }, delayMs);
  }
}
