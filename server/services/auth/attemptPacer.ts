import type { Clock } from '../../clock/clock.js';
import { TooManyAttemptsError } from './loginThrottle.js';

/**
 * Spaces attempts out instead of refusing them: per key (a user name), each turn starts at
 * least `spacingMs` after the one before, in arrival order. Access control paces the password
 * checks of a name that has had too many wrong ones, from whatever client: a guesser gets one
 * guess per turn, and the rightful user's password is still checked, at its turn. More than
 * `maxWaiting` waiting turns of one key are refused at once (429), so waiting requests cannot
 * pile up without end.
 */
export interface AttemptPacer {
  /** Resolves when this attempt may run; rejects with TooManyAttemptsError when the key's line is full. */
  turn(key: string): Promise<void>;
}

export interface AttemptPacerOptions {
  clock: Clock;
  /** Default 1 s. */
  spacingMs?: number;
  /** Per key. Default 64. */
  maxWaiting?: number;
}

export function createAttemptPacer(options: AttemptPacerOptions): AttemptPacer {
  const { clock } = options;
  const spacingMs = options.spacingMs ?? 1_000;
  const maxWaiting = options.maxWaiting ?? 64;
  // key → when its next turn may start, and how many wait for one. Forgotten once idle.
  const lines = new Map<string, { nextAt: number; waiting: number }>();

  return {
    turn(key) {
      const now = clock.now();
      const line = lines.get(key) ?? { nextAt: Number.NEGATIVE_INFINITY, waiting: 0 };
      const at = Math.max(now, line.nextAt);
      if (at > now && line.waiting >= maxWaiting) {
        return Promise.reject(new TooManyAttemptsError(Math.ceil((at - now) / 1000)));
      }
      line.nextAt = at + spacingMs;
      lines.set(key, line);
      const forgetWhenIdle = () => {
        if (line.waiting === 0) {
          clock.setTimer(
            () => {
              if (line.waiting === 0 && clock.now() >= line.nextAt) lines.delete(key);
            },
            Math.max(0, line.nextAt - clock.now()),
          );
        }
      };
      if (at === now) {
        forgetWhenIdle();
        return Promise.resolve();
      }
      line.waiting++;
      return new Promise((resolve) => {
        clock.setTimer(() => {
          line.waiting--;
          forgetWhenIdle();
          resolve();
        }, at - now);
      });
    },
  };
}
