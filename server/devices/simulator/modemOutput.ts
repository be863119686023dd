import type { Clock, TimerHandle } from '../../clock/clock.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { Transport } from '../transport/transport.js';

/**
 * What the simulated modem sends and when: writes to its ports, the delays before replies and
 * sends, and the timers of later work (status reports). A power cut (`halt`) ends them all; a
 * hung modem (`silent`) writes nothing.
 */
export class ModemOutput {
  /** Off before start and after a halt: nothing is written. */
  running = false;
  /** A hung modem: it neither answers, echoes, nor sends unsolicited codes. */
  silent = false;
  private readonly timers = new Set<TimerHandle>();
  /** Reply and send delays in progress: halting releases them so the input loop can end. */
  private readonly pauses = new Set<{ timer: TimerHandle; release: () => void }>();

  constructor(
    /** The command port: where replies go, and indications unless routed elsewhere. */
    readonly commandPort: Transport,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  write(text: string, port: Transport = this.commandPort): void {
    if (!this.running || this.silent || text === '' || !port.isOpen) return;
    if (this.logger.isEnabled('DEBUG')) this.logger.debug('» reply', { text, port: port.description });
    port.write(text).catch((error: unknown) => {
      this.logger.warn('simulated modem could not write', { error: describeError(error) });
    });
  }

  /** Waits `delayMs` (none for 0 or undefined); a halt ends the wait at once. */
  pause(delayMs: number | undefined): Promise<void> {
    if (delayMs === undefined || delayMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const pause = {
        timer: this.clock.setTimer(() => {
          this.pauses.delete(pause);
          resolve();
        }, delayMs),
        release: resolve,
      };
      this.pauses.add(pause);
    });
  }

  /** Runs `work` after `delayMs`, unless the modem halts first. */
  later(work: () => void, delayMs: number): void {
    const handle = this.clock.setTimer(() => {
      this.timers.delete(handle);
      work();
    }, delayMs);
    this.timers.add(handle);
  }

  /** Like a power cut: later work is dropped, delays end. */
  halt(): void {
    this.running = false;
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
    for (const pause of this.pauses) {
      pause.timer.cancel();
      pause.release();
    }
    this.pauses.clear();
  }
}
