export interface RestartPolicyOptions {
  /** A core that ran this long before crashing counts as healthy: the pause starts short again. */
  healthyAfterMs: number;
  /** First pause; doubled per failure in a row. */
  firstDelayMs: number;
  /** The longest pause between two attempts. */
  maxDelayMs: number;
}

export const defaultRestartPolicy: RestartPolicyOptions = {
  healthyAfterMs: 10 * 60_000,
  firstDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
};

export type ExitDecision =
  /** A cause no later attempt can fix by itself (a start-up option): a person must act. */
  | { restart: false; reason: 'needs-a-person' }
  | { restart: true; delayMs: number; attempt: number; wasReady: boolean };

/**
 * When the core's process ends unexpectedly, it is started again after a pause that doubles per
 * failure in a row, up to `maxDelayMs`, and never stops by itself: an office PC left alone must
 * get its gateway back once the cause (a modem driver, a full disk, a port held by something
 * else) goes away. A failure to start counts like a crash; only a bad start-up option, which the
 * next attempt would meet again unchanged, waits for a person.
 */
export class RestartPolicy {
  private failuresInARow = 0;
  private readyAt?: number;

  constructor(private readonly options: RestartPolicyOptions = defaultRestartPolicy) {}

  started(): void {
    this.readyAt = undefined;
  }

  ready(now: number): void {
    this.readyAt = now;
  }

  /** A person asked for a fresh start (retry, another port): earlier failures do not count. */
  reset(): void {
    this.failuresInARow = 0;
  }

  exited(now: number, cause: { retryable: boolean } = { retryable: true }): ExitDecision {
    const readyAt = this.readyAt;
    this.readyAt = undefined;
    if (!cause.retryable) return { restart: false, reason: 'needs-a-person' };
    if (readyAt !== undefined && now - readyAt >= this.options.healthyAfterMs) this.failuresInARow = 0;
    this.failuresInARow++;
    const delayMs = Math.min(
      this.options.maxDelayMs,
      this.options.firstDelayMs * 2 ** Math.min(this.failuresInARow - 1, 30),
    );
    return { restart: true, attempt: this.failuresInARow, delayMs, wasReady: readyAt !== undefined };
  }
}
