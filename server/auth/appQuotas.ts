import type { Clock } from '../clock/clock.js';
import { type Period, periodAt } from '../clock/resetPeriods.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
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
 * Each app's quota of messages per day and per month (auth/appDirectory.ts). The count of a
 * period is read once from what the app queued since the period began (`countSince`, the audit
 * trail's POST /messages of that app), then kept in memory. A message is counted when admitted,
 * before it is queued, so that concurrent requests cannot all pass the last free place; one
 * that then fails to queue gives its place back.
 */
export interface AppQuotas {
  /**
   * Counts one message of the app, or throws QuotaExceededError when a period has none left.
   * Returns the function that gives the place back.
   */
  admit(appId: string): () => void;
}

export function createAppQuotas(deps: {
  apps: Pick<AppDirectory, 'get'>;
  clock: Clock;
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

  const nothing = () => {};
  return {
    admit(appId) {
      const quota = deps.apps.get(appId)?.quota;
      if (!quota) return nothing;
      const periods = limits(quota).map(({ kind, limit }) => ({
        kind,
        limit,
        count: countOf(appId, kind, quota),
      }));
      for (const { kind, limit, count } of periods) {
        if (count.used < limit) continue;
        const resetsAt = new Date(count.period.end).toISOString();
        throw new QuotaExceededError(
          Math.max(1, Math.ceil((count.period.end - deps.clock.now()) / 1000)),
          `quota: this app has queued its ${limit} messages per ${kind}; it resets at ${resetsAt}`,
        );
      }
      for (const { count } of periods) count.used++;
      return () => {
        for (const { count } of periods) count.used = Math.max(0, count.used - 1);
      };
    },
  };
}
