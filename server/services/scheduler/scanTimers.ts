import type { Clock, TimerHandle } from '../../clock/clock.js';

/**
 * The scheduler's two timers. A scan never runs inline: `request` sets a zero-delay timer, so
 * every event of one instant (several sends ending together) is seen by one scan; for a message
 * just queued that a modem can take now, `requestThisTurn` runs it in a microtask instead, still
 * after every message written in that turn. `wakeAt` sets the one timer for the next instant
 * something falls due (an expiry, a schedule, a limit lifting); only an earlier instant moves it.
 * The scheduler's scan does nothing once it is stopped, so a scan already queued is harmless.
 */
export class ScanTimers {
  private scanTimer: TimerHandle | undefined;
  private wakeTimer: TimerHandle | undefined;
  private wakeTimerAt = Number.POSITIVE_INFINITY;
  private scanThisTurn = false;

  constructor(
    private readonly clock: Clock,
    /** Runs the scan. */
    private readonly scan: () => void,
  ) {}

  /** A scan soon, unless one is already coming. */
  request(): void {
    if (this.scanTimer) return;
    this.scanTimer = this.clock.setTimer(() => {
      this.scanTimer = undefined;
      this.scan();
    }, 0);
  }

  /**
   * A scan before this turn of the event loop ends (a microtask), instead of at the next timer:
   * for a message just queued that a modem can take now, so that its Processed mark joins the
   * write batch of its insert and one commit (one fsync) makes both durable. A scan already
   * coming on the timer is replaced by this one.
   */
  requestThisTurn(): void {
    if (this.scanThisTurn) return;
    this.scanTimer?.cancel();
    this.scanTimer = undefined;
    this.scanThisTurn = true;
    queueMicrotask(() => {
      this.scanThisTurn = false;
      this.scan();
    });
  }

  /** When the wake timer is due; Infinity when none is set. */
  get wakeDueAt(): number {
    return this.wakeTimerAt;
  }

  /** Through `request()`: events due at the same instant (sends ending) land in the same scan. */
  wakeAt(at: number, now: number): void {
    this.cancelWake();
    this.wakeTimerAt = at;
    this.wakeTimer = this.clock.setTimer(() => {
      this.wakeTimer = undefined;
      this.wakeTimerAt = Number.POSITIVE_INFINITY;
      this.request();
    }, at - now);
  }

  cancelWake(): void {
    this.wakeTimer?.cancel();
    this.wakeTimer = undefined;
    this.wakeTimerAt = Number.POSITIVE_INFINITY;
  }

  cancelAll(): void {
    this.scanTimer?.cancel();
    this.scanTimer = undefined;
    this.cancelWake();
  }
}
