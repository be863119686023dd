/**
 * How fast the gateway hands messages to one Android phone. The phone has a queue of its own, so
 * the modem pool does not wait for each SMS to leave; these bounds keep it from filling that queue
 * faster than Android lets the app send (by default an app may send about 30 SMS per 30 minutes
 * before Android asks the user: SmsUsageMonitor's `sms_outgoing_check_max_count` and
 * `sms_outgoing_check_interval_ms`), and from handing one phone the whole queue.
 */
export interface PhonePacingSettings {
  /** Seconds between two hand-overs to this phone, 0..3600. */
  minIntervalSeconds: number;
  /** Hand-overs (one per recipient) within `periodMinutes`, 1..100 000; null: no cap. */
  maxPerPeriod: number | null;
  /** Length of the sliding window of `maxPerPeriod`, 1..1440 minutes. */
  periodMinutes: number;
  /** Recipients the phone may hold not yet sent (Processed here), 1..500. */
  maxInFlight: number;
}

/** Android's default warning threshold: 30 per 30 minutes. */
export const defaultPhonePacing: PhonePacingSettings = {
  minIntervalSeconds: 0,
  maxPerPeriod: 30,
  periodMinutes: 30,
  maxInFlight: 10,
};

/** The phone's own limits, kept in memory and refilled from the store at start. */
export class PhonePacer {
  /** Hand-over times (ms) within the longest window that may matter, oldest first. */
  private readonly handOvers: number[] = [];

  constructor(private settings_: PhonePacingSettings) {}

  get settings(): PhonePacingSettings {
    return this.settings_;
  }

  set settings(settings: PhonePacingSettings) {
    this.settings_ = settings;
  }

  record(at: number): void {
    this.handOvers.push(at);
    const keep = 1_440 * 60_000;
    while (this.handOvers.length > 0 && (this.handOvers[0] ?? at) < at - keep) this.handOvers.shift();
  }

  /** Hand-overs from before this run, oldest first. */
  restore(times: readonly number[]): void {
    for (const at of [...times].sort((left, right) => left - right)) this.record(at);
  }

  /**
   * When the next hand-over may start: now, a later time when the interval or the window holds it,
   * or Infinity while the phone holds `maxInFlight` recipients (a settled one frees a place).
   */
  availableAt(now: number, held: number): number {
    const { minIntervalSeconds, maxPerPeriod, periodMinutes, maxInFlight } = this.settings_;
    if (held >= maxInFlight) return Number.POSITIVE_INFINITY;
    let at = now;
    const last = this.handOvers.at(-1);
    if (last !== undefined) at = Math.max(at, last + minIntervalSeconds * 1_000);
    if (maxPerPeriod !== null) {
      const periodMs = periodMinutes * 60_000;
      const inWindow = this.handOvers.filter((time) => time > now - periodMs);
      if (inWindow.length >= maxPerPeriod) {
        // The oldest hand-over that must leave the window before one more fits.
        const leaving = inWindow[inWindow.length - maxPerPeriod] ?? now;
        at = Math.max(at, leaving + periodMs);
      }
    }
    return at;
  }
}
