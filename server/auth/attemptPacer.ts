import type { Clock } from '../clock/clock.js';
import { TooManyAttemptsError } from './loginThrottle.js';

/**
 * Spaces attempts out instead of refusing them: each turn starts at least `spacingMs` after the
 * one before, in arrival order. Access control paces the password checks of clients with no
 * failures of their own while their user name is locked, so the rightful user still gets in
 * while a guesser that takes a fresh identity per guess gets one guess per turn. More than
 * `maxWaiting` waiting turns are refused at once (429), so waiting requests cannot pile up.
 */
export interface AttemptPacer {
  /** Resolves when this attempt may run; rejects with TooManyAttemptsError when the line is full. */
  turn(): Promise<void>;
}

export interface AttemptPacerOptions {
  clock: Clock;
  /** Default 1 s. */
  spacingMs?: number;
  /** Default 16. */
  maxWaiting?: number;
}

export function createAttemptPacer(options: AttemptPacerOptions): AttemptPacer {
  const { clock } = options;
  const spacingMs = options.spacingMs ?? 1_000;
  const maxWaiting = options.maxWaiting ?? 16;
  let nextAt = Number.NEGATIVE_INFINITY;
  let waiting = 0;

  return {
    turn() {
      const now = clock.now();
      const at = Math.max(now, nextAt);
      if (at > now && waiting >= maxWaiting) {
        return Promise.reject(new TooManyAttemptsError(Math.ceil((at - now) / 1000)));
      }
      nextAt = at + spacingMs;
      if (at === now) return Promise.resolve();
      waiting++;
      return new Promise((resolve) => {
        clock.setTimer(() => {
          waiting--;
          resolve();
        }, at - now);
      });
    },
  };
}
