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

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    // Timers never keep the process alive on their own: shutdown is explicit.
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

/** Resolves after `delayMs` on the given clock. */
export function sleep(clock: Clock, delayMs: number): Promise<void> {
  return new Promise((resolve) => clock.setTimer(resolve, delayMs));
}
