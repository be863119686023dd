/**
 * Time is injected everywhere (scheduler, limits, TTL, retries, health probes) so tests can run
 * hours of schedule in milliseconds with `ManualClock`.
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  setTimer(callback: () => void, delayMs: number): TimerHandle;
}

/**
 * setTimeout takes at most 2^31−1 ms (about 24.8 days) and fires a longer delay at once, so a
 * message scheduled months ahead would wake the scheduler every millisecond. Longer delays are
 * waited in steps.
 */
const longestTimeoutMs = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    let timer: ReturnType<typeof setTimeout>;
    const arm = (remainingMs: number) => {
      timer =
        remainingMs > longestTimeoutMs
          ? setTimeout(() => arm(remainingMs - longestTimeoutMs), longestTimeoutMs)
          : setTimeout(callback, Math.max(0, remainingMs));
      // Timers never keep the process alive on their own: shutdown is explicit.
      timer.unref();
    };
    arm(delayMs);
    return { cancel: () => clearTimeout(timer) };
  },
};

/** Resolves after `delayMs` on the given clock. */
export function sleep(clock: Clock, delayMs: number): Promise<void> {
  return new Promise((resolve) => clock.setTimer(resolve, delayMs));
}
