import type { Clock } from '../../clock/clock.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/**
 * Counts failed logins per key (docs/decisions.md#security-defaults) in a sliding window: once
 * `maxFailures` failures fall inside the last `windowMs`, the key is `locked` until the oldest of
 * them leaves the window. Access control keys each Basic attempt by its user name and counts it
 * before hashing (withdrawing it when the password was right), so concurrent guesses cannot all
 * slip in while the first ones are still being hashed; a locked name's checks are then paced,
 * never refused (see accessControl.ts).
 */
export interface LoginThrottleOptions {
  clock: Clock;
  /** Default 10. */
  maxFailures?: number;
  /** Default 5 min. */
  windowMs?: number;
  /** Most keys tracked at once; the stalest are forgotten first. Default 10,000. */
  maxTrackedKeys?: number;
}

/** 429: carries how long the client should wait, for the Retry-After header. */
export class TooManyAttemptsError extends GatewayError {
  constructor(readonly retryAfterSeconds: number) {
    super(ErrorCode.TooManyAttempts, `too many failed logins; retry in ${retryAfterSeconds} s`);
  }
}

export interface LoginThrottle {
  /** Whether `maxFailures` failures of the key are inside the window. */
  locked(key: string): boolean;
  recordFailure(key: string): void;
  /** Takes back the newest counted failure: the attempt counted before hashing was right. */
  withdrawFailure(key: string): void;
}

export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  const { clock } = options;
  const maxFailures = options.maxFailures ?? 10;
  const windowMs = options.windowMs ?? 5 * 60_000;
  const maxTracked = options.maxTrackedKeys ?? 10_000;
  // ip → failure times, oldest first. Map order is insertion order: re-inserting on each
  // failure keeps the stalest IP first, for eviction.
  const failures = new Map<string, number[]>();

  const recent = (ip: string): number[] => {
    const times = failures.get(ip);
    if (!times) return [];
    const cutoff = clock.now() - windowMs;
    while (times.length > 0 && (times[0] ?? 0) <= cutoff) times.shift();
    if (times.length === 0) failures.delete(ip);
    return times;
  };

  return {
    locked: (key) => recent(key).length >= maxFailures,
    recordFailure(ip) {
      const times = recent(ip);
      times.push(clock.now());
      failures.delete(ip);
      // Only the newest maxFailures matter for the decision.
      failures.set(ip, times.slice(-maxFailures));
      for (const stale of failures.keys()) {
        if (failures.size <= maxTracked) break;
        failures.delete(stale);
      }
    },
    withdrawFailure(key) {
      const times = recent(key);
      times.pop();
      if (times.length === 0) failures.delete(key);
    },
  };
}
