import type { Clock, TimerHandle } from '../clock/clock.js';
import { describeError, ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { EventBus } from '../events/eventBus.js';
import type { Logger } from '../logging/logger.js';
import {
  type BalanceReading,
  extractAmount,
  type ModemOperationsSettingsStore,
} from './modemOperationsSettings.js';
import type { UssdSessions } from './ussdSessions.js';

export interface BalanceWatchOptions {
  settings: ModemOperationsSettingsStore;
  sessions: UssdSessions;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  /** A new reading was kept (the device record shows it). */
  onReading(deviceId: string): void;
}

/** A check never made before runs this soon after the code is set. */
const firstCheckDelayMs = 1_000;
/** A failed check (modem still starting, network busy) is tried again this soon, at most. */
const retryDelayMs = 5 * 60_000;
const minuteMs = 60_000;

/**
 * The scheduled balance check of each modem with a balance code: the USSD code every
 * `balanceIntervalMinutes`, the amount found by the pattern, and `modem:low-balance` when it
 * falls below the threshold (once per fall, not at every check while it stays low).
 */
export class BalanceWatch {
  private readonly timers = new Map<string, TimerHandle>();
  private stopped = false;

  constructor(private readonly options: BalanceWatchOptions) {}

  start(): void {
    this.stopped = false;
    for (const deviceId of this.options.settings.withBalanceCheck()) this.schedule(deviceId);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
  }

  /** After a settings change: the next check follows the new interval (or none without a code). */
  schedule(deviceId: string): void {
    this.timers.get(deviceId)?.cancel();
    this.timers.delete(deviceId);
    const settings = this.options.settings.settings(deviceId);
    if (this.stopped || settings.balanceCode === null) return;
    const intervalMs = settings.balanceIntervalMinutes * minuteMs;
    const last = this.options.settings.lastBalance(deviceId);
    const now = this.options.clock.now();
    const delay = last ? Math.min(Math.max(last.at + intervalMs - now, 0), intervalMs) : firstCheckDelayMs;
    this.after(deviceId, delay);
  }

  /** Asks the balance now (the modem card's button, and the schedule). */
  async check(deviceId: string): Promise<BalanceReading> {
    const settings = this.options.settings.settings(deviceId);
    const code = settings.balanceCode;
    if (code === null) {
      throw new GatewayError(ErrorCode.InvalidState, `device ${deviceId} has no balance code`, {
        field: 'balanceCode',
      });
    }
    const exchange = await this.options.sessions.request(deviceId, code);
    const previous = this.options.settings.lastBalance(deviceId);
    const amount = extractAmount(exchange.answer, settings.balancePattern);
    const threshold = settings.lowBalanceThreshold;
    const low = amount !== undefined && threshold !== null && amount < threshold;
    const reading: BalanceReading = { answer: exchange.answer, at: exchange.at, low };
    if (amount !== undefined) reading.amount = amount;
    await this.options.settings.saveBalance(deviceId, reading);
    this.options.onReading(deviceId);
    if (low && amount !== undefined && threshold !== null && !previous?.low) {
      this.options.logger.warn('balance below the threshold', { deviceId, amount, threshold });
      this.options.events.emit('modem:low-balance', {
        deviceId,
        balance: amount,
        threshold,
        answer: exchange.answer,
        at: exchange.at,
      });
    }
    return reading;
  }

  private async scheduledCheck(deviceId: string): Promise<void> {
    this.timers.delete(deviceId);
    let failed = false;
    try {
      await this.check(deviceId);
    } catch (error) {
      failed = true;
      this.options.logger.warn('scheduled balance check failed', { deviceId, error: describeError(error) });
    }
    if (this.stopped || this.timers.has(deviceId)) return;
    const settings = this.options.settings.settings(deviceId);
    if (settings.balanceCode === null) return;
    const intervalMs = settings.balanceIntervalMinutes * minuteMs;
    this.after(deviceId, failed ? Math.min(intervalMs, retryDelayMs) : intervalMs);
  }

  private after(deviceId: string, delayMs: number): void {
    this.timers.set(
      deviceId,
      this.options.clock.setTimer(() => void this.scheduledCheck(deviceId), delayMs),
    );
  }
}
