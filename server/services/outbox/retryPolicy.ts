/**
 * Exponential back-off as upstream: 5 s, doubling, capped so a long outage still retries
 * hourly. `retryCount` is the number of retries after the first attempt
 * (`webhooks.retry_count`; 0 = a single attempt).
 */
export const firstRetryDelayMs = 5_000;
export const maxRetryDelayMs = 60 * 60_000;

export function retryDelayMs(attemptsMade: number): number {
  return Math.min(maxRetryDelayMs, firstRetryDelayMs * 2 ** Math.max(0, attemptsMade - 1));
}

export function hasAttemptsLeft(attemptsMade: number, retryCount: number): boolean {
  return attemptsMade < 1 + Math.max(0, retryCount);
}
