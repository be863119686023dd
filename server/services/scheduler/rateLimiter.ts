/** Settings values of `messages.limit_period` (spec, settings). */
export type LimitPeriod = 'Disabled' | 'PerMinute' | 'Per30Minutes' | 'PerHour' | 'PerDay';

export const limitPeriodMs: Record<Exclude<LimitPeriod, 'Disabled'>, number> = {
  PerMinute: 60_000,
  Per30Minutes: 30 * 60_000,
  PerHour: 3_600_000,
  PerDay: 86_400_000,
};

/** The longest window any setting can ask for: what must be remembered across a restart. */
export const LONGEST_LIMIT_PERIOD_MS = limitPeriodMs.PerDay;

export interface SendLimit {
  period: LimitPeriod;
  value: number | null;
}

/**
 * At most `value` messages per `period` per modem as a SLIDING window: a send at `t` counts
 * against every window that contains `t`, so no boundary lets a burst of 2×value through (the
 * fixed-bucket flaw p-queue's `strict` option fixes). The times are those the messages were
 * handed to the modem (`states.Processed`), so the window can be rebuilt from the store.
 */
export class SlidingWindowLimiter {
  /** deviceId → hand-over times, ascending. */
  private readonly sends = new Map<string, number[]>();

  record(deviceId: string, at: number): void {
    const times = this.sends.get(deviceId) ?? [];
    // Keep ascending even if a restored time is older than one already recorded.
    let index = times.length;
    while (index > 0 && (times[index - 1] ?? 0) > at) index--;
    times.splice(index, 0, at);
    this.sends.set(deviceId, times);
  }

  /** Sends of a modem in the window (now - period, now]; with limits off, in the longest window. */
  countInWindow(deviceId: string, now: number, limit: SendLimit): number {
    const times = this.prune(deviceId, now);
    const period = activePeriodMs(limit) ?? LONGEST_LIMIT_PERIOD_MS;
    return times.length - firstAfter(times, now - period);
  }

  /** Earliest instant at which one more non-expedited send is allowed (≤ now: allowed now). */
  nextAllowedAt(deviceId: string, now: number, limit: SendLimit): number {
    const period = activePeriodMs(limit);
    if (period === undefined) return now;
    const times = this.prune(deviceId, now);
    const value = Math.floor(limit.value ?? 0);
    if (times.length - firstAfter(times, now - period) < value) return now;
    // The window frees a slot when the oldest send that keeps it full slides out of it.
    return (times[times.length - value] ?? now) + period;
  }

  /** Drops what no setting could count any more, so memory stays bounded. */
  private prune(deviceId: string, now: number): number[] {
    const times = this.sends.get(deviceId);
    if (!times) return [];
    let drop = 0;
    while (drop < times.length && (times[drop] ?? 0) <= now - LONGEST_LIMIT_PERIOD_MS) drop++;
    if (drop > 0) times.splice(0, drop);
    return times;
  }
}

/** Index of the first time strictly after `bound` in ascending `times` (binary search). */
function firstAfter(times: readonly number[], bound: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((times[middle] ?? 0) > bound) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * Window length in ms, or undefined when limiting is off. A limit needs both a period and a
 * positive value: `limit_value` null (the default) or 0 means "no limit" even with a period
 * chosen, as a 0 that silently stopped all sending would look like a broken gateway.
 */
export function activePeriodMs(limit: SendLimit): number | undefined {
  if (limit.period === 'Disabled' || limit.value === null || limit.value <= 0) return undefined;
  return limitPeriodMs[limit.period];
}
