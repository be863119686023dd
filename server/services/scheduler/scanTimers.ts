import type { Clock, TimerHandle } from '../../clock/clock.js';

/**
 * The scheduler's two timers. A scan never runs inline: `request` sets a zero-delay timer, so
 * every event of one instant (several sends ending together) is seen by one scan; for a message
 * just queued that a modem can take now, `requestThisTurn` runs it in a microtask instead, still
 * after every message written in that turn; for a modem a send's answer freed,
 * `requestBeforeCommit` runs it as that answer's commit is made. `wakeAt` sets the one timer for the next instant
 * something falls due (an expiry, a schedule, a limit lifting); only an earlier instant moves it.
 * The scheduler's scan does nothing once it is stopped, so a scan already queued is harmless.
 */
export class ScanTimers {
  private scanTimer: TimerHandle | undefined;
  private wakeTimer: TimerHandle | undefined;
  private wakeTimerAt = Number.POSITIVE_INFINITY;
  private scanThisTurn = false;
  private scanAtCommit = false;

  constructor(
    private readonly clock: Clock,
    /** Runs the scan. */
    private readonly scan: () => void,
    /** Runs a task just before the store's open write batch commits; false when none is open. */
    private readonly beforeCommit?: (task: () => void) => boolean,
  ) {}

  /** A scan soon, unless one is already coming. */
  request(): void {
    if (this.scanTimer || this.scanAtCommit) return;
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

  /**
   * A scan just before the store's open write batch commits, for a modem a send's answer freed:
   * its next hand-over's Processed mark joins the commit that records the answer, so one
   * fdatasync makes both durable, and every modem freed in this turn is seen by that one scan.
   * Without an open batch, as `request()`.
   */
  requestBeforeCommit(): void {
    if (this.scanAtCommit || this.scanThisTurn) return;
    const registered =
      this.beforeCommit?.(() => {
        this.scanAtCommit = false;
        this.scan();
      }) ?? false;
    if (!registered) {
      this.request();
      return;
    }
    this.scanAtCommit = true;
    this.scanTimer?.cancel();
    this.scanTimer = undefined;
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
