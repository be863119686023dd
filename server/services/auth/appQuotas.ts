import type { Clock } from '../../clock/clock.js';
import { type Period, periodAt } from '../../clock/resetPeriods.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { AppDirectory, AppQuota } from './appDirectory.js';

/** 429 naming the quota and when it resets; `Retry-After` carries the seconds until then. */
export class QuotaExceededError extends GatewayError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(ErrorCode.QuotaExceeded, message);
  }
}

/**
 * Each app's quota of SMS per day and per month (auth/appDirectory.ts), counted per recipient:
 * a message to 100 numbers is 100 SMS, as SIM plans count them. The count of a period is read
 * once from the messages the app queued since the period began (`countSince`), whichever way in
 * they came by, then kept in memory. Messages are counted when admitted, before they are
 * queued, so that concurrent requests cannot all pass the last free place; those that then fail
 * to queue give their places back (`release`).
 */
export interface AppQuotas {
  /** Counts `count` SMS of the app, or throws QuotaExceededError (counting none) when a period has not that many left. */
  admit(appId: string, count: number): void;
  /** Gives back places admitted for SMS that were not queued after all. */
  release(appId: string, count: number): void;
  /** How much of each period of its quota the app has used, and when each resets. */
  usage(appId: string): QuotaUse[];
}

export interface QuotaUse {
  period: 'day' | 'month';
  used: number;
  limit: number;
  /** When the period ends (ms since epoch). */
  resetsAt: number;
}

export function createAppQuotas(deps: {
  apps: Pick<AppDirectory, 'get'>;
  clock: Clock;
  /** The recipients of the app's messages created at or after `since`. */
  countSince: (appId: string, since: number) => number;
}): AppQuotas {
  // app id and period kind → the period counted and its count.
  const counts = new Map<string, { period: Period; used: number }>();

  const limits = (quota: AppQuota) =>
    [
      { kind: 'day' as const, limit: quota.perDay },
      { kind: 'month' as const, limit: quota.perMonth },
    ].filter((entry): entry is { kind: 'day' | 'month'; limit: number } => entry.limit !== undefined);

  const countOf = (appId: string, kind: 'day' | 'month', quota: AppQuota) => {
    const now = deps.clock.now();
    const key = `${appId} ${kind}`;
    const known = counts.get(key);
    if (known && now >= known.period.start && now < known.period.end) return known;
    const period = periodAt(kind, quota, now);
    const fresh = { period, used: deps.countSince(appId, period.start) };
    counts.set(key, fresh);
    return fresh;
  };

  const periodsOf = (appId: string) => {
    const quota = deps.apps.get(appId)?.quota;
    if (!quota) return [];
    return limits(quota).map(({ kind, limit }) => ({ kind, limit, count: countOf(appId, kind, quota) }));
  };

  return {
    admit(appId, wanted) {
      const periods = periodsOf(appId);
      for (const { kind, limit, count } of periods) {
        if (count.used + wanted <= limit) continue;
        const resetsAt = new Date(count.period.end).toISOString();
        const left = Math.max(0, limit - count.used);
        throw new QuotaExceededError(
          Math.max(1, Math.ceil((count.period.end - deps.clock.now()) / 1000)),
          `quota: this app may send ${limit} SMS per ${kind} (one per recipient); ${left} are left ` +
            `and this asks for ${wanted}; it resets at ${resetsAt}`,
        );
      }
      for (const { count } of periods) count.used += wanted;
    },
    usage(appId) {
      return periodsOf(appId).map(({ kind, limit, count }) => ({
        period: kind,
        used: count.used,
        limit,
        resetsAt: count.period.end,
      }));
    },
    release(appId, count) {
      for (const { kind } of periodsOf(appId)) {
        const known = counts.get(`${appId} ${kind}`);
        if (known) known.used = Math.max(0, known.used - count);
      }
    },
  };
}
