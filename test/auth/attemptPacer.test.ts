import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { createAttemptPacer } from '../../server/services/auth/attemptPacer.js';
import { TooManyAttemptsError } from '../../server/services/auth/loginThrottle.js';

describe('AttemptPacer', () => {
  it("lets a key's first attempt run at once and each later one a spacing after the one before", async () => {
    const clock = new ManualClock();
    const pacer = createAttemptPacer({ clock, spacingMs: 1_000 });
    const started: number[] = [];
    const turns = Array.from({ length: 3 }, () =>
      pacer.turn('user:admin').then(() => started.push(clock.now())),
    );
    await clock.advance(2_500);
    await Promise.all(turns);
    const origin = Date.UTC(2026, 0, 1);
    expect(started).toEqual([origin, origin + 1_000, origin + 2_000]);
  });

  it('paces each key on its own', async () => {
    const clock = new ManualClock();
    const pacer = createAttemptPacer({ clock, spacingMs: 1_000 });
    await pacer.turn('user:admin');
    let other = false;
    void pacer.turn('user:shop').then(() => {
      other = true;
    });
    await clock.advance(0);
    expect(other).toBe(true);
  });

  it("refuses a turn with 429 and the wait while the key's line is full", async () => {
    const clock = new ManualClock();
    const pacer = createAttemptPacer({ clock, spacingMs: 1_000, maxWaiting: 2 });
    const admitted = [pacer.turn('k'), pacer.turn('k'), pacer.turn('k')];
    await expect(pacer.turn('k')).rejects.toEqual(expect.any(TooManyAttemptsError));
    await expect(pacer.turn('k')).rejects.toMatchObject({ retryAfterSeconds: 3 });
    await clock.advance(2_000);
    await Promise.all(admitted);
    // Room again: the next turn waits its spacing rather than being refused.
    const next = pacer.turn('k');
    await clock.advance(1_000);
    await expect(next).resolves.toBeUndefined();
  });
});
