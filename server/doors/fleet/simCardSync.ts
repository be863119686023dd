import type { Clock, TimerHandle } from '../../clock/clock.js';
import { describeError, ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { MobileSimCard } from './mobileApi.js';

/**
 * Keeps the server's copy of our SIM cards current with `PATCH /device`, as the app's
 * `GatewayService.updateDevice` does at each start and on SIM changes: one request at a time,
 * and only when the list differs from what the server last took. A PATCH that failed is tried
 * again after `retryDelayMs`, or sooner at the next `sync()` (the link calls it whenever the
 * server answers): while the events stream is open and quiet, nothing else would bring the
 * server's copy back in step. One the server refuses as malformed is not repeated until the
 * list changes.
 */
export class SimCardSync {
  private running?: Promise<void>;
  private again = false;
  private stopped = false;
  private retryTimer?: TimerHandle;

  constructor(
    private readonly deps: {
      current(): MobileSimCard[];
      patch(simCards: MobileSimCard[]): Promise<void>;
      clock: Clock;
      /** The pause before a failed PATCH is sent again. */
      retryDelayMs: number;
      logger: Logger;
      /** Each answer or failure, for the link's status (undefined: the server took it). */
      onExchange(error?: unknown): void;
    },
    /** What the server holds already: the list registration sent; unknown for a stored one. */
    private taken?: string,
  ) {}

  static signature(simCards: readonly MobileSimCard[]): string {
    return JSON.stringify(simCards);
  }

  sync(): void {
    if (this.stopped) return;
    this.retryTimer?.cancel();
    this.retryTimer = undefined;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.retryTimer?.cancel();
    await this.running;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      const simCards = this.deps.current();
      const signature = SimCardSync.signature(simCards);
      if (signature === this.taken) continue;
      try {
        await this.deps.patch(simCards);
        this.taken = signature;
        this.deps.onExchange();
      } catch (error) {
        if (isGatewayError(error, ErrorCode.FleetProtocol)) {
          this.deps.logger.error('the private server refused our SIM cards', { error: describeError(error) });
          this.taken = signature;
          continue;
        }
        this.deps.onExchange(error);
        if (!this.stopped)
          this.retryTimer = this.deps.clock.setTimer(() => this.sync(), this.deps.retryDelayMs);
        return;
      }
    } while (this.again && !this.stopped);
  }
}
