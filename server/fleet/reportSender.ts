import type { Clock, TimerHandle } from '../clock/clock.js';
import { ErrorCode, isGatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { retryDelayMs } from '../webhooks/retryPolicy.js';
import type { ReportOutbox } from './reportOutbox.js';
import type { ServerClient } from './serverClient.js';

/** Reports per PATCH: upstream takes an array and applies it in order. */
const maxBatch = 100;

/**
 * Empties the report outbox into `PATCH /message`, oldest first, one request at a time (so
 * order holds across requests too). A failed request is retried with the webhooks' back-off
 * (5 s doubling, at most hourly) — and at once when the link sees the server answer again.
 * A report the server refuses as malformed (400) can never be taken: it is sent alone to find
 * it, then dropped with an error in the log rather than block every report behind it.
 */
export class ReportSender {
  private retryTimer?: TimerHandle;
  private draining?: Promise<void>;
  private failures = 0;
  private batchLimit = maxBatch;
  private stopped = false;

  constructor(
    private readonly deps: {
      outbox: ReportOutbox;
      client: ServerClient;
      deviceToken: string;
      clock: Clock;
      logger: Logger;
      /** Each answer or failure, for the link's status (undefined: the server took the batch). */
      onExchange(error?: unknown): void;
    },
  ) {}

  /**
   * A new report: sent now, unless a send is under way (it goes on until the outbox is empty)
   * or the server failed and its retry is due later.
   */
  kick(): void {
    if (this.retryTimer) return;
    this.send();
  }

  /** The server answered again: what waits goes now, not at the retry. */
  retryNow(): void {
    this.retryTimer?.cancel();
    this.retryTimer = undefined;
    this.send();
  }

  private send(): void {
    if (this.stopped || this.draining) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.retryTimer?.cancel();
    await this.draining;
  }

  private async drain(): Promise<void> {
    const { outbox, client, logger } = this.deps;
    while (!this.stopped && outbox.size > 0) {
      const batch = outbox.oldest(this.batchLimit);
      try {
        await client.patchMessages(
          this.deps.deviceToken,
          batch.map((queued) => queued.report),
        );
      } catch (error) {
        if (isGatewayError(error, ErrorCode.FleetProtocol)) {
          if (batch.length > 1) {
            this.batchLimit = 1;
            continue;
          }
          logger.error('the private server refused a state report; it is dropped', {
            report: batch[0]?.report,
            error: error.message,
          });
          await outbox.remove(batch);
          continue;
        }
        this.deps.onExchange(error);
        // A rejected token waits for the user; anything else is tried again later.
        if (!isGatewayError(error, ErrorCode.FleetRejected)) this.retryLater();
        return;
      }
      await outbox.remove(batch);
      this.failures = 0;
      this.batchLimit = maxBatch;
      this.deps.onExchange();
    }
  }

  private retryLater(): void {
    this.failures++;
    this.retryTimer = this.deps.clock.setTimer(() => this.retryNow(), retryDelayMs(this.failures));
  }
}
