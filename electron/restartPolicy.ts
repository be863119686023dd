export interface RestartPolicyOptions {
  /** Restarts in a row after crashes, before the app stops trying and says so. */
  maxRestarts: number;
  /** A core that ran this long before crashing counts as healthy: the count starts again. */
  healthyAfterMs: number;
  /** First delay; doubled per restart in a row. */
  firstDelayMs: number;
}

export const defaultRestartPolicy: RestartPolicyOptions = {
  maxRestarts: 3,
  healthyAfterMs: 10 * 60_000,
  firstDelayMs: 1_000,
};

export type ExitDecision =
  /** It never got ready: a cause that repeats on every attempt (port, lock, option). */
  | { restart: false; reason: 'failed-to-start' }
  | { restart: false; reason: 'too-many-crashes'; crashes: number }
  | { restart: true; delayMs: number; attempt: number };

/**
 * When the core's process ends unexpectedly: restart only after a crash that happened after it
 * was ready, a bounded number of times in a row. A core that dies before `ready` is not
 * restarted: the same port, lock or option would stop it again, in a loop.
 */
export class RestartPolicy {
  private crashesInARow = 0;
  private readyAt?: number;

  constructor(private readonly options: RestartPolicyOptions = defaultRestartPolicy) {}

  started(): void {
    this.readyAt = undefined;
  }

  ready(now: number): void {
    this.readyAt = now;
  }

  /** The user asked for a fresh start (retry, another port): earlier crashes do not count. */
  reset(): void {
    this.crashesInARow = 0;
  }

  exited(now: number): ExitDecision {
    const readyAt = this.readyAt;
    this.readyAt = undefined;
    if (readyAt === undefined) return { restart: false, reason: 'failed-to-start' };
    if (now - readyAt >= this.options.healthyAfterMs) this.crashesInARow = 0;
    this.crashesInARow++;
    if (this.crashesInARow > this.options.maxRestarts) {
      return { restart: false, reason: 'too-many-crashes', crashes: this.crashesInARow };
    }
    return {
      restart: true,
      attempt: this.crashesInARow,
      delayMs: this.options.firstDelayMs * 2 ** (this.crashesInARow - 1),
    };
  }
}
