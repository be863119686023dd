import { describeError, ErrorCode, isGatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import type { MobileSimCard } from './mobileApi.js';

/**
 * Keeps the server's copy of our SIM cards current with `PATCH /device`, as the app's
 * `GatewayService.updateDevice` does at each start and on SIM changes: one request at a time,
 * and only when the list differs from what the server last took. A PATCH that failed is tried
 * again at the next `sync()` (the link calls it whenever the server answers); one the server
 * refuses as malformed is not repeated until the list changes.
 */
export class SimCardSync {
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deps: {
      current(): MobileSimCard[];
      patch(simCards: MobileSimCard[]): Promise<void>;
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
        return;
      }
    } while (this.again && !this.stopped);
  }
}
