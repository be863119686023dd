import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../server/services/scheduler/rateLimiter.js';

const MINUTE = 60_000;
const perMinute = (value: number | null) => ({ period: 'PerMinute' as const, value });

describe('SlidingWindowLimiter', () => {
  it('allows sends until the window holds limit_value of them', () => {
    const limiter = new SlidingWindowLimiter();
    limiter.record('m1', 0);
    expect(limiter.nextAllowedAt('m1', 1000, perMinute(2))).toBe(1000);
    limiter.record('m1', 1000);
    expect(limiter.nextAllowedAt('m1', 2000, perMinute(2))).toBe(MINUTE);
  });

  it('frees a slot exactly one period after the send that filled the window', () => {
    const limiter = new SlidingWindowLimiter();
    for (const at of [0, 10_000, 20_000]) limiter.record('m1', at);
    expect(limiter.nextAllowedAt('m1', 30_000, perMinute(3))).toBe(MINUTE);
    expect(limiter.countInWindow('m1', MINUTE, perMinute(3))).toBe(2);
    expect(limiter.nextAllowedAt('m1', MINUTE, perMinute(3))).toBe(MINUTE);
  });

  it('counts each modem separately', () => {
    const limiter = new SlidingWindowLimiter();
    limiter.record('m1', 0);
    expect(limiter.nextAllowedAt('m2', 0, perMinute(1))).toBe(0);
    expect(limiter.nextAllowedAt('m1', 0, perMinute(1))).toBe(MINUTE);
  });

  it.each([
    ['the period is Disabled', { period: 'Disabled' as const, value: 1 }],
    ['limit_value is null', perMinute(null)],
    ['limit_value is 0', perMinute(0)],
  ])('does not limit when %s', (_name, limit) => {
    const limiter = new SlidingWindowLimiter();
    for (let at = 0; at < 100; at++) limiter.record('m1', at);
    expect(limiter.nextAllowedAt('m1', 100, limit)).toBe(100);
  });

  it('keeps a day of sends, so switching to PerDay counts sends made under another setting', () => {
    const limiter = new SlidingWindowLimiter();
    limiter.record('m1', 0);
    limiter.record('m1', 5 * MINUTE);
    const now = 2 * 60 * MINUTE;
    expect(limiter.nextAllowedAt('m1', now, { period: 'PerDay', value: 2 })).toBe(24 * 60 * MINUTE);
  });

  it('orders restored times that arrive out of order', () => {
    const limiter = new SlidingWindowLimiter();
    limiter.record('m1', 30_000);
    limiter.record('m1', 10_000);
    expect(limiter.nextAllowedAt('m1', 40_000, perMinute(2))).toBe(10_000 + MINUTE);
  });
});
