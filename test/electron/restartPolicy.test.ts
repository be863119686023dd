import { describe, expect, it } from 'vitest';
import { RestartPolicy } from '../../electron/restartPolicy.js';

const options = { maxRestarts: 3, healthyAfterMs: 600_000, firstDelayMs: 1_000 };

describe('when the desktop app restarts the core', () => {
  it('never restarts a core that exited before it was ready', () => {
    const policy = new RestartPolicy(options);
    for (let attempt = 0; attempt < 5; attempt++) {
      policy.started();
      expect(policy.exited(attempt)).toEqual({ restart: false, reason: 'failed-to-start' });
    }
  });

  it('restarts after crashes with doubling delays, then gives up', () => {
    const policy = new RestartPolicy(options);
    const decisions = [];
    for (let crash = 0; crash < 4; crash++) {
      policy.started();
      policy.ready(crash * 1_000);
      decisions.push(policy.exited(crash * 1_000 + 500));
    }
    expect(decisions).toEqual([
      { restart: true, attempt: 1, delayMs: 1_000 },
      { restart: true, attempt: 2, delayMs: 2_000 },
      { restart: true, attempt: 3, delayMs: 4_000 },
      { restart: false, reason: 'too-many-crashes', crashes: 4 },
    ]);
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
