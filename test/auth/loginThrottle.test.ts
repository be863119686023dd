import { describe, expect, it } from 'vitest';
import {
  clientIdentity,
  clientKey,
  createLoginThrottle,
  TooManyAttemptsError,
} from '../../server/auth/loginThrottle.js';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';

const minute = 60_000;

function setup() {
  const clock = new ManualClock();
  return { clock, throttle: createLoginThrottle({ clock, maxFailures: 10, windowMs: 5 * minute }) };
}

function lockedFor(check: () => void): number | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (!(error instanceof TooManyAttemptsError)) throw error;
    expect(error.code).toBe(ErrorCode.TooManyAttempts);
    return error.retryAfterSeconds;
  }
}

describe('LoginThrottle', () => {
  it('lets nine failures through and locks the IP out at the tenth for the whole window', () => {
    const { throttle } = setup();
    for (let attempt = 0; attempt < 9; attempt++) throttle.recordFailure('10.0.0.5');
    expect(lockedFor(() => throttle.check('10.0.0.5'))).toBeUndefined();

    throttle.recordFailure('10.0.0.5');
    expect(lockedFor(() => throttle.check('10.0.0.5'))).toBe(300);
  });

  it('frees the IP once the oldest counted failure slides out of the window', async () => {
    const { clock, throttle } = setup();
    throttle.recordFailure('10.0.0.5');
    await clock.advance(2 * minute);
    for (let attempt = 0; attempt < 9; attempt++) throttle.recordFailure('10.0.0.5');

    expect(lockedFor(() => throttle.check('10.0.0.5'))).toBe(180);
    await clock.advance(3 * minute - 1);
    expect(lockedFor(() => throttle.check('10.0.0.5'))).toBe(1);
    await clock.advance(1);
    expect(lockedFor(() => throttle.check('10.0.0.5'))).toBeUndefined();
  });

  it('locks again at once when a freed IP fails again inside the window', async () => {
    const { clock, throttle } = setup();
    for (let attempt = 0; attempt < 10; attempt++) {
      throttle.recordFailure('10.0.0.5');
      await clock.advance(10_000);
    }
    await clock.advance(5 * minute - 100_000);
    expect(lockedFor(() => throttle.check('10.0.0.5'))).toBeUndefined();

    throttle.recordFailure('10.0.0.5');
    expect(lockedFor(() => throttle.check('10.0.0.5'))).toBe(10);
  });

  it('takes back one counted failure when the attempt counted before hashing was right', () => {
    const { throttle } = setup();
    for (let attempt = 0; attempt < 10; attempt++) throttle.recordFailure('10.0.0.5');
    throttle.withdrawFailure('10.0.0.5');
    expect(lockedFor(() => throttle.check('10.0.0.5'))).toBeUndefined();
    throttle.recordFailure('10.0.0.5');
    expect(lockedFor(() => throttle.check('10.0.0.5'))).toBe(300);
  });

  it('keys all of loopback as one client and an IPv6 host by its /64 (review 2)', () => {
    expect(new Set(['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.2'].map(clientKey))).toEqual(
      new Set(['loopback']),
    );
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe(clientKey('2001:0db8:1:2::ffff'));
    expect(clientKey('2001:db8:1:2::1')).not.toBe(clientKey('2001:db8:1:3::1'));
  });

  it('tells local programs apart by their User-Agent, but not the addresses of one host (issue 36)', () => {
    expect(clientIdentity('127.0.0.1', 'curl/8.5.0')).toBe(clientIdentity('127.9.9.9', 'curl/8.5.0'));
    expect(clientIdentity('127.0.0.1', 'curl/8.5.0')).not.toBe(clientIdentity('127.0.0.1', 'HomeAssistant'));
    expect(clientIdentity('::1', 'x'.repeat(10_000)).length).toBeLessThan(300);
  });

  it('tells whether a key is locked or has any failure in the window', async () => {
    const { clock, throttle } = setup();
    expect([throttle.locked('a'), throttle.hasFailures('a')]).toEqual([false, false]);
    throttle.recordFailure('a');
    expect([throttle.locked('a'), throttle.hasFailures('a')]).toEqual([false, true]);
    for (let attempt = 0; attempt < 9; attempt++) throttle.recordFailure('a');
    expect(throttle.locked('a')).toBe(true);
    await clock.advance(5 * minute);
    expect([throttle.locked('a'), throttle.hasFailures('a')]).toEqual([false, false]);
  });

  it('counts each IP on its own', () => {
    const { throttle } = setup();
    for (let attempt = 0; attempt < 10; attempt++) throttle.recordFailure('10.0.0.5');

    expect(lockedFor(() => throttle.check('10.0.0.5'))).toBe(300);
    expect(lockedFor(() => throttle.check('10.0.0.6'))).toBeUndefined();
  });

  it('forgets the stalest IPs beyond the tracking limit instead of growing without bound', () => {
    const clock = new ManualClock();
    const throttle = createLoginThrottle({ clock, maxFailures: 1, windowMs: minute, maxTrackedClients: 2 });
    throttle.recordFailure('10.0.0.1');
    throttle.recordFailure('10.0.0.2');
    throttle.recordFailure('10.0.0.3');

    expect(lockedFor(() => throttle.check('10.0.0.1'))).toBeUndefined();
    expect(lockedFor(() => throttle.check('10.0.0.2'))).toBe(60);
    expect(lockedFor(() => throttle.check('10.0.0.3'))).toBe(60);
  });
});
