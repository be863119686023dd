import type { Clock, TimerHandle } from '../../clock/clock.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { optional, type SetupContext } from './modemSetup.js';
import type { ModemKnowledge } from './modemState.js';
import { fullReceivingMemory, parseStorageUse, storageNeedsEmptying } from './storageUse.js';

export interface StoragePollingOptions {
  clock: Clock;
  logger: Logger;
  /** The usual wait between two rounds, in ms. */
  pollIntervalMs: number;
  /** How soon after a send (or a nearly full memory) the storage is listed, in ms. */
  pollAfterSendMs: number;
  /** Where `readUse` keeps what it read. */
  known: ModemKnowledge;
  /** Initialised and answering: only then is the storage listed. */
  inService(): boolean;
  /** Lists and processes everything in the modem storage. */
  refresh(): Promise<void>;
  /** `AT+CPMS?` found the receiving memory without a free slot. */
  onFull(memory: string): void;
}

/**
 * Lists the modem's message storage on a timer while it is in service. Indications only make
 * receiving faster: the storage is listed whether or not the modem promised +CMTI/+CDSI,
 * because a multi-port modem may send them to another interface.
 */
export class StoragePolling {
  private timer?: TimerHandle;
  private dueAt?: number;
  /** Asked for soon while a round was running: the next round comes soon, not late. */
  private requested = false;

  constructor(private readonly options: StoragePollingOptions) {}

  start(): void {
    this.schedule(this.options.pollIntervalMs);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.dueAt = undefined;
    this.requested = false;
  }

  /**
   * Brings the next round forward to `pollAfterSendMs` from now, unless it is due sooner. A
   * status report may be kept where no indication reaches us (another USB interface, or "SR"
   * with no +CDSI): gammu-smsd likewise checks after each send.
   */
  soon(): void {
    if (!this.options.inService()) return;
    if (this.dueAt === undefined) {
      this.requested = true;
      return;
    }
    if (this.dueAt <= this.options.clock.now() + this.options.pollAfterSendMs) return;
    this.schedule(this.options.pollAfterSendMs);
  }

  /**
   * `AT+CPMS?`: how full each message memory is (kept as it was when the modem does not say).
   * A memory that receives (<mem3>) and is nearly full is emptied now rather than at the next
   * poll: a full SIM makes the network keep, and after a while drop, what it was to deliver.
   */
  async readUse(context: SetupContext): Promise<void> {
    const use = await optional(context, 'AT+CPMS?', parseStorageUse);
    if (!use) return;
    this.options.known.storageUse = use;
    const full = fullReceivingMemory(use);
    if (full !== undefined) this.options.onFull(full);
    if (storageNeedsEmptying(use)) {
      this.options.logger.warn('message storage nearly full; reading it now', { storage: use });
      this.soon();
    }
  }

  private schedule(delayMs: number): void {
    this.timer?.cancel();
    this.dueAt = this.options.clock.now() + delayMs;
    this.timer = this.options.clock.setTimer(() => void this.round(), delayMs);
  }

  private async round(): Promise<void> {
    this.timer = undefined;
    this.dueAt = undefined;
    if (!this.options.inService()) return;
    await this.options.refresh().catch((error: unknown) => {
      this.options.logger.warn('polling modem storage failed', { error: describeError(error) });
    });
    const soon = this.requested;
    this.requested = false;
    if (this.options.inService() && !this.timer) {
      this.schedule(soon ? this.options.pollAfterSendMs : this.options.pollIntervalMs);
    }
  }
}
