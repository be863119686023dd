import { isIPv6 } from 'node:net';
import type { Clock } from '../clock/clock.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';

/**
 * Throttles failed logins per key (docs/decisions.md#security-defaults) with a sliding window: once
 * `maxFailures` failures fall inside the last `windowMs`, the key is locked until the oldest of
 * them leaves the window. Access control keys each Basic attempt by its client (`clientIdentity`)
 * and by its user name, and counts the attempt before hashing (withdrawing it when the password was
 * right), so concurrent guesses cannot all slip in while the first ones are still being hashed. A
 * locked client gets no answer at all; a locked user name refuses only clients that failed
 * themselves (see accessControl.ts).
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
  /** Throws TooManyAttemptsError while the key is locked out. */
  check(key: string): void;
  locked(key: string): boolean;
  /** Whether any failure of the key is still inside the window. */
  hasFailures(key: string): boolean;
  recordFailure(key: string): void;
  /** Takes back the newest counted failure: the attempt counted before hashing was right. */
  withdrawFailure(key: string): void;
}

/**
 * Whose attempts count together. Linux answers on every 127.x.y.z, so a local process could
 * take a fresh address per guess: all of loopback is one client. An IPv6 host owns at least a
 * /64, so that is one client too. IPv4 counts per address (IPv4-mapped IPv6 included).
 */
export function clientKey(ip: string): string {
  const address = ip.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (address === '::1' || /^127\./.test(address)) return 'loopback';
  if (isIPv6(address)) return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
  return address;
}

/**
 * One client: its address class (`clientKey`) and its User-Agent. On loopback every local
 * program shares the address, so without the agent a guessing script would lock out the window
 * and Home Assistant alike (issue 36). The agent is the client's own word and a guesser may
 * change it per guess; that is why a locked user name paces fresh identities (accessControl.ts).
 * Cut so that 10,000 tracked clients of 16 kB headers cannot hold 160 MB.
 */
export function clientIdentity(ip: string, userAgent: string | undefined): string {
  return `${clientKey(ip)} ${(userAgent ?? '').slice(0, 256)}`;
}

/** The eight groups of an IPv6 address, '::' filled in (zone ids dropped). */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]?.split('::') ?? [''];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = Array.from({ length: Math.max(0, 8 - headGroups.length - tailGroups.length) }, () => '0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => group.replace(/^0+(?=.)/, ''));
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
    locked: (key) => recent(key).length >= maxFailures,
    hasFailures: (key) => recent(key).length > 0,
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
