import type { Clock, TimerHandle } from '../../clock/clock.js';
import { describeError, ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { readHealth } from './modemHealth.js';
import type { SetupContext } from './modemSetup.js';
import type { ModemState } from './modemState.js';
import type { StoragePolling } from './storagePolling.js';

export interface HealthRoundsOptions {
  clock: Clock;
  logger: Logger;
  /** The wait between two rounds, in ms. */
  healthIntervalMs: number;
  /** The wait for the probe's answer, in ms. */
  probeTimeoutMs: number;
  /** What a round reads lands here; a round runs only while the modem is in service. */
  state: ModemState;
  /** Reads the storage use (and empties a nearly full memory). */
  polling: Pick<StoragePolling, 'readUse'>;
  /** The session to check (throws when there is none in service). */
  context(): SetupContext;
  /** The registration may have changed: the driver settles its status. */
  registrationRead(): void;
  /** A round went unanswered: the driver starts recovering, which ends the rounds. */
  onSilence(): void;
}

/**
 * Checks the modem on a timer while it is in service: a probe (`AT`), then signal,
 * registration and storage use. A round that times out hands over to recovery; any other
 * failure is logged and the rounds go on.
 */
export class HealthRounds {
  private timer?: TimerHandle;

  constructor(private readonly options: HealthRoundsOptions) {}

  start(): void {
    this.schedule();
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Runs the next round at once (the PC woke from sleep); only while rounds are scheduled. */
  runNow(): void {
    if (!this.timer) return;
    this.timer.cancel();
    void this.round();
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimer(() => void this.round(), this.options.healthIntervalMs);
  }

  private async round(): Promise<void> {
    this.timer = undefined;
    const { state } = this.options;
    if (!state.inService()) return;
    try {
      await this.check();
    } catch (error) {
      this.options.logger.warn('health check failed', { error: describeError(error) });
      if (isGatewayError(error, ErrorCode.AtTimeout)) {
        this.options.onSilence();
        return;
      }
    }
    if (state.inService() && !this.timer) this.schedule();
  }

  private async check(): Promise<void> {
    const { state, polling } = this.options;
    const context = this.options.context();
    await context.session.execute('AT', { timeoutMs: this.options.probeTimeoutMs });
    const { quirks, charset } = state.known;
    state.known.health = await readHealth(
      context,
      { cpinWithoutOk: quirks.cpinWithoutOk, charset },
      this.options.logger,
    );
    await polling.readUse(context);
    if (state.inService()) this.options.registrationRead();
    state.changed();
  }
}
