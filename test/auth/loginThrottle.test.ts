import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { createLoginThrottle } from '../../server/services/auth/loginThrottle.js';

const minute = 60_000;

function setup() {
  const clock = new ManualClock();
  return { clock, throttle: createLoginThrottle({ clock, maxFailures: 10, windowMs: 5 * minute }) };
}

describe('LoginThrottle', () => {
  it('marks a name locked at its tenth failure inside the window, until the oldest leaves it', async () => {
    const { clock, throttle } = setup();
    for (let attempt = 0; attempt < 9; attempt++) throttle.recordFailure('user:admin');
    expect(throttle.locked('user:admin')).toBe(false);
    await clock.advance(minute);
    throttle.recordFailure('user:admin');
    expect(throttle.locked('user:admin')).toBe(true);
    await clock.advance(4 * minute - 1);
    expect(throttle.locked('user:admin')).toBe(true);
    await clock.advance(1);
    expect(throttle.locked('user:admin')).toBe(false);
  });

  it('takes back one counted failure when the attempt counted before hashing was right', () => {
    const { throttle } = setup();
    for (let attempt = 0; attempt < 10; attempt++) throttle.recordFailure('user:admin');
    throttle.withdrawFailure('user:admin');
    expect(throttle.locked('user:admin')).toBe(false);
  });

  it('counts each name on its own', () => {
    const { throttle } = setup();
    for (let attempt = 0; attempt < 10; attempt++) throttle.recordFailure('user:admin');
    expect(throttle.locked('user:admin')).toBe(true);
    expect(throttle.locked('user:shop')).toBe(false);
  });

  it('forgets the stalest names beyond the tracking limit instead of growing without bound', () => {
    const clock = new ManualClock();
    const throttle = createLoginThrottle({ clock, maxFailures: 1, windowMs: minute, maxTrackedKeys: 2 });
    throttle.recordFailure('user:a');
    throttle.recordFailure('user:b');
    throttle.recordFailure('user:c');
    expect(throttle.locked('user:a')).toBe(false);
    expect(throttle.locked('user:b')).toBe(true);
    expect(throttle.locked('user:c')).toBe(true);
  });
});
