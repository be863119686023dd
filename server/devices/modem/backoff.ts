/** Capped exponential back-off: initial, 2×, 4× … never above `maxMs`. `attempt` starts at 0. */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
}
