import type { Clock } from '../clock/clock.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';

/**
 * Throttles failed logins per client IP (DESIGN §5) with a sliding window: once `maxFailures`
 * failures fall inside the last `windowMs`, every attempt from that IP — right or wrong — is
 * refused until the oldest of them leaves the window, so guessing gets no answer at all.
 * A success resets the IP's count.
 */
export interface LoginThrottleOptions {
  clock: Clock;
  /** Default 10. */
  maxFailures?: number;
  /** Default 5 min. */
  windowMs?: number;
  /** Most IPs tracked at once; the stalest are forgotten first. Default 10,000. */
  maxTrackedClients?: number;
}

/** 429: carries how long the client should wait, for the Retry-After header. */
export class TooManyAttemptsError extends GatewayError {
  constructor(readonly retryAfterSeconds: number) {
    super(ErrorCode.TooManyAttempts, `too many failed logins; retry in ${retryAfterSeconds} s`);
  }
}

export interface LoginThrottle {
  /** Throws TooManyAttemptsError while the IP is locked out. */
  check(ip: string): void;
  recordFailure(ip: string): void;
  recordSuccess(ip: string): void;
}

export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  const { clock } = options;
  const maxFailures = options.maxFailures ?? 10;
  const windowMs = options.windowMs ?? 5 * 60_000;
  const maxTracked = options.maxTrackedClients ?? 10_000;
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
    check(ip) {
      const times = recent(ip);
      if (times.length < maxFailures) return;
      const oldest = times[times.length - maxFailures] ?? clock.now();
      const waitMs = oldest + windowMs - clock.now();
      throw new TooManyAttemptsError(Math.max(1, Math.ceil(waitMs / 1000)));
    },
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
    recordSuccess(ip) {
      failures.delete(ip);
    },
  };
}
