import type { Clock, TimerHandle } from '../../clock/clock.js';
import { describeError, ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { FactAnnouncer } from '../events/factAnnouncer.js';
import type { PatternMatching } from '../patterns/patternMatcher.js';
import {
  amountOf,
  type BalanceReading,
  defaultAmountPattern,
  type ModemOperationsSettingsStore,
} from './modemOperationsSettings.js';
import type { UssdSessions } from './ussdSessions.js';

export interface BalanceWatchOptions {
  settings: ModemOperationsSettingsStore;
  sessions: UssdSessions;
  /** Runs the user's balance pattern off the event loop, within `balancePatternBudgetMs`. */
  patterns: PatternMatching;
  /** `modem:low-balance` is announced through it. */
  facts: FactAnnouncer;
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
 * What one balance pattern may take on one answer. A sane pattern ends in a blink on an answer of
 * a few hundred characters; this only bounds one that backtracks without end.
 */
export const balancePatternBudgetMs = 1_000;

/**
 * The scheduled balance check of each modem with a balance code: the USSD code every
 * `balanceIntervalMinutes`, the amount found by the pattern, and `modem:low-balance` when it
 * falls below the threshold (once per fall, not at every check while it stays low).
 */
export class BalanceWatch {
  private readonly timers = new Map<string, TimerHandle>();
  /**
   * One check per modem at a time: the button pressed during a scheduled check is answered by
   * it, rather than asking the network (and running the pattern) twice.
   */
  private readonly checking = new Map<string, Promise<BalanceReading>>();
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
  check(deviceId: string): Promise<BalanceReading> {
    const running = this.checking.get(deviceId);
    if (running) return running;
    const check = this.checkNow(deviceId).finally(() => this.checking.delete(deviceId));
    this.checking.set(deviceId, check);
    return check;
  }

  private async checkNow(deviceId: string): Promise<BalanceReading> {
    const settings = this.options.settings.settings(deviceId);
    const code = settings.balanceCode;
    if (code === null) {
      throw new GatewayError(ErrorCode.InvalidState, `device ${deviceId} has no balance code`, {
        field: 'balanceCode',
      });
    }
    const exchange = await this.options.sessions.request(deviceId, code);
    const previous = this.options.settings.lastBalance(deviceId);
    const amount = await this.amountIn(deviceId, exchange.answer, settings.balancePattern);
    const threshold = settings.lowBalanceThreshold;
    const low = amount !== undefined && threshold !== null && amount < threshold;
    const reading: BalanceReading = { answer: exchange.answer, at: exchange.at, low };
    if (amount !== undefined) reading.amount = amount;
    // Owed (durably) before the reading that says "low" is kept, so a crash between the two
    // raises it again at the next check rather than never; heard only once the device shows it.
    const owed =
      low && amount !== undefined && threshold !== null && !previous?.low
        ? this.options.facts.owe('modem:low-balance', {
            deviceId,
            balance: amount,
            threshold,
            answer: exchange.answer,
            at: exchange.at,
          })
        : undefined;
    if (owed) {
      this.options.logger.warn('balance below the threshold', { deviceId, amount, threshold });
      await owed.durable;
    }
    await this.options.settings.saveBalance(deviceId, reading);
    this.options.onReading(deviceId);
    owed?.emit();
    return reading;
  }

  /**
   * The user's pattern runs on the pattern thread within its budget. One that runs out of time
   * is disabled (and said so in the log and the operations view) rather than run again at the
   * next check: it would take its whole budget on every answer.
   */
  private async amountIn(
    deviceId: string,
    answer: string,
    pattern: string | null,
  ): Promise<number | undefined> {
    if (pattern === null) return amountOf(defaultAmountPattern.exec(answer));
    if (this.options.settings.balancePatternDisabled(deviceId)) return undefined;
    const [outcome] = await this.options.patterns.match(
      [{ source: pattern, flags: '' }],
      answer,
      balancePatternBudgetMs,
    );
    if (outcome?.kind === 'matched') return amountOf(outcome.groups);
    if (outcome?.kind === 'timed-out') {
      await this.options.settings.disableBalancePattern(deviceId, pattern, {
        reason: 'timed-out',
        at: this.options.clock.now(),
      });
      this.options.logger.warn('the balance pattern ran out of time and is disabled until it is changed', {
        deviceId,
        pattern,
        budgetMs: balancePatternBudgetMs,
      });
    }
    return undefined;
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
