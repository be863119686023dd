import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';

const day = 86_400_000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the system clock', () => {
  it('waits a delay longer than setTimeout takes (about 24.8 days) instead of firing at once', () => {
    const fired = vi.fn();
    systemClock.setTimer(fired, 60 * day);
    vi.advanceTimersByTime(59 * day);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(day);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('cancels a long wait in any of its steps', () => {
    const fired = vi.fn();
    const timer = systemClock.setTimer(fired, 60 * day);
    vi.advanceTimersByTime(30 * day);
    timer.cancel();
    vi.advanceTimersByTime(60 * day);
    expect(fired).not.toHaveBeenCalled();
  });
});
