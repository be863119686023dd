import type { MessageRepository } from '../../store/repositories.js';
import { restoreSendWindows } from './crashRecovery.js';
import { activePeriodMs, type SendLimit, SlidingWindowLimiter } from './rateLimiter.js';
import type { SendingPolicy } from './sendingPolicy.js';
import { SendPacing } from './sendPacing.js';
import { workHoursOpenAt } from './workHours.js';

/** What holds back a non-expedited message at one instant, besides each modem's own pause. */
export interface Limits {
  window: SendLimit;
  /** When the working hours let sends through again (`now` while they are open). */
  opensAt: number;
}

export function limitsOf(policy: SendingPolicy, now: number): Limits {
  return {
    window: { period: policy.limitPeriod, value: policy.limitValue },
    opensAt: policy.workHours ? workHoursOpenAt(policy.workHours, now) : now,
  };
}

/**
 * The per-modem limits on non-expedited sends: the sliding window of hand-overs
 * (`rateLimiter.ts`), the pause between two sends (`sendPacing.ts`) and the working hours.
 *
 * Hand-overs from before this run are in the window from `restoredFrom` on. They are read from
 * the store only as far back as an active limit needs (`restoreFor`): with no limit set, a start
 * reads none of them, however busy the last day was; a longer window set later reads the rest.
 */
export class SendLimits {
  private limiter = new SlidingWindowLimiter();
  private restoredFrom = 0;
  private readonly pacing: SendPacing;

  constructor(
    private readonly repository: MessageRepository,
    random: () => number,
  ) {
    this.pacing = new SendPacing(random);
  }

  /**
   * A (re)start: the windows are rebuilt from the store alone, so a stop/start of one scheduler
   * does not count a send twice. Returns how many hand-overs were read.
   */
  restart(policy: SendingPolicy, now: number): number {
    this.limiter = new SlidingWindowLimiter();
    this.restoredFrom = now;
    return this.restoreFor(limitsOf(policy, now).window, now);
  }

  /** The limits in force, with the windows refilled from the store as far back as they reach. */
  at(policy: SendingPolicy, now: number): Limits {
    const limits = limitsOf(policy, now);
    this.restoreFor(limits.window, now);
    return limits;
  }

  /** A hand-over to `deviceId` now: it counts in its window. */
  record(deviceId: string, now: number): void {
    this.limiter.record(deviceId, now);
  }

  /** A send of `deviceId` ended: the pause before its next non-expedited send starts. */
  sendEnded(deviceId: string, now: number, policy: SendingPolicy): void {
    this.pacing.sendEnded(deviceId, now, {
      minSeconds: policy.sendIntervalMinSeconds,
      maxSeconds: policy.sendIntervalMaxSeconds,
    });
  }

  sentInWindow(deviceId: string, now: number, limits: Limits): number {
    return this.limiter.countInWindow(deviceId, now, limits.window);
  }

  /** When the pause after its last send ends. */
  pausedUntil(deviceId: string): number {
    return this.pacing.nextAllowedAt(deviceId);
  }

  /** When its sliding window has room again. */
  windowFreeAt(deviceId: string, now: number, limits: Limits): number {
    return this.limiter.nextAllowedAt(deviceId, now, limits.window);
  }

  /** When the pause, the sliding window and the working hours all let a non-expedited message through. */
  freeAt(deviceId: string, now: number, limits: Limits): number {
    return Math.max(this.pausedUntil(deviceId), this.windowFreeAt(deviceId, now, limits), limits.opensAt);
  }

  /**
   * Reads from the store the hand-overs of before this run that `limit`'s window reaches and
   * the limiter does not hold yet. Returns how many were read.
   */
  private restoreFor(limit: SendLimit, now: number): number {
    const period = activePeriodMs(limit);
    if (period === undefined || now - period >= this.restoredFrom) return 0;
    const restored = restoreSendWindows(this.repository, this.limiter, now - period, this.restoredFrom);
    this.restoredFrom = now - period;
    return restored;
  }
}
