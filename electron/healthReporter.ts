import type { Clock, TimerHandle } from '../server/clock/clock.js';
import type { CoreHealth } from './coreHealth.js';

/**
 * In the core: reads the gateway's health every `everyMs`, and soon after a message changes
 * (`nudge`), and passes it on whenever what the shell acts on changed.
 */
export class HealthReporter {
  private timer?: TimerHandle;
  private nudged?: TimerHandle;
  private last = '';
  private stopped = false;

  constructor(
    private readonly deps: {
      read(): Promise<CoreHealth>;
      post(health: CoreHealth): void;
      clock: Clock;
      everyMs?: number;
      /** Many message events in a burst make one report. */
      settleMs?: number;
    },
  ) {}

  start(): void {
    void this.tick();
  }

  /** A message was queued or changed state: report soon. */
  nudge(): void {
    if (this.nudged || this.stopped) return;
    this.nudged = this.deps.clock.setTimer(() => {
      this.nudged = undefined;
      void this.read();
    }, this.deps.settleMs ?? 1_000);
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.nudged?.cancel();
  }

  private async tick(): Promise<void> {
    await this.read();
    if (this.stopped) return;
    this.timer = this.deps.clock.setTimer(() => void this.tick(), this.deps.everyMs ?? 30_000);
  }

  private async read(): Promise<void> {
    let health: CoreHealth;
    try {
      health = await this.deps.read();
    } catch {
      // The gateway is stopping; the next start reports afresh.
      return;
    }
    const key = JSON.stringify(health);
    if (key === this.last || this.stopped) return;
    this.last = key;
    this.deps.post(health);
  }
}
