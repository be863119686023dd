import type { Logger } from '../logging/logger.js';

export type Stop = () => Promise<void> | void;

/**
 * What the composition steps started, stopped in reverse order of start (top-down: HTTP first,
 * the store last). One failing stop never keeps the others from running.
 */
export class StopList {
  private readonly stops: Stop[] = [];

  add(stop: Stop): void {
    this.stops.push(stop);
  }

  async stopAll(logger: Logger): Promise<void> {
    for (const stop of this.stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        logger.error('error while stopping', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
}
