import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../../electron/restartPolicy.js';

const options = { healthyAfterMs: 600_000, firstDelayMs: 1_000, maxDelayMs: 900_000 };

describe('when the desktop app restarts the core', () => {
  it('restarts after crashes with doubling pauses, capped at the longest pause, and never gives up', () => {
    const policy = new RestartPolicy(options);
    const pauses: number[] = [];
    for (let crash = 0; crash < 14; crash++) {
      policy.started();
      policy.ready(crash * 1_000);
      const decision = policy.exited(crash * 1_000 + 500);
      if (!decision.restart) throw new Error('gave up');
      pauses.push(decision.delayMs);
    }
    expect(pauses).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 900_000, 900_000,
      900_000, 900_000,
    ]);
  });

  it('tries again after a failure to start, but waits for a person when an option is wrong', () => {
    const policy = new RestartPolicy(options);
    policy.started();
    expect(policy.exited(0)).toEqual({ restart: true, attempt: 1, delayMs: 1_000, wasReady: false });
    policy.started();
    expect(policy.exited(1_000)).toMatchObject({ restart: true, attempt: 2, delayMs: 2_000 });
    policy.started();
    expect(policy.exited(2_000, { retryable: false })).toEqual({ restart: false, reason: 'needs-a-person' });
  });

  it('forgives earlier crashes once the core ran long enough, or when the user retries', () => {
    const policy = new RestartPolicy(options);
    policy.ready(0);
    policy.exited(1);
    policy.ready(10);
    expect(policy.exited(10 + 600_000)).toMatchObject({ restart: true, attempt: 1 });
    policy.ready(700_000);
    expect(policy.exited(700_001)).toMatchObject({ attempt: 2 });
    policy.reset();
    policy.ready(800_000);
    expect(policy.exited(800_001)).toMatchObject({ attempt: 1 });
  });
});
