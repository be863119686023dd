export interface SendInterval {
  /** `messages.send_interval_min` in seconds; null: 0. */
  minSeconds: number | null;
  /** `messages.send_interval_max` in seconds; null: the minimum. */
  maxSeconds: number | null;
}

/**
 * The pause between two sends of one modem: uniform in [min, max] seconds, drawn when a send
 * ends, so the next non-expedited send of that modem waits at least that long (upstream
 * `send_interval_min/max`). Expedited messages ignore it, but the pause still starts after them:
 * the modem did just send.
 */
export class SendPacing {
  /** deviceId → earliest instant of its next non-expedited send. */
  private readonly readyAt = new Map<string, number>();

  constructor(private readonly random: () => number) {}

  /** Records the end of a send and draws the pause that follows it. */
  sendEnded(deviceId: string, at: number, interval: SendInterval): void {
    this.readyAt.set(deviceId, at + this.drawPauseMs(interval));
  }

  nextAllowedAt(deviceId: string): number {
    return this.readyAt.get(deviceId) ?? Number.NEGATIVE_INFINITY;
  }

  private drawPauseMs(interval: SendInterval): number {
    const min = Math.max(0, interval.minSeconds ?? 0);
    const max = Math.max(min, interval.maxSeconds ?? min);
    // No draw when there is nothing to choose: keeps the random sequence for what needs it.
    if (max === min) return min * 1000;
    return Math.round((min + this.random() * (max - min)) * 1000);
  }
}
