/**
 * How long a modem that refused a hand-over with ModemUnavailable is left alone before it is
 * offered work again, so a modem stuck in that state cannot spin the queue.
 */
export const MODEM_UNAVAILABLE_BACKOFF_MS = 30_000;

/**
 * Modems the scheduler leaves alone after they refused a hand-over. The back-off is for a modem
 * that says it is ready yet refuses; one seen down and then ready again (replugged, recovered)
 * is in a new state and is offered work at once, without waiting the back-off out.
 */
export class ModemParking {
  private readonly parkedUntil = new Map<string, number>();
  private readonly downWhileParked = new Set<string>();

  /** `readyNow`: it usually refused because it had just gone down, and may have said so first. */
  park(deviceId: string, now: number, readyNow: boolean): void {
    this.parkedUntil.set(deviceId, now + MODEM_UNAVAILABLE_BACKOFF_MS);
    this.downWhileParked.delete(deviceId);
    this.noteStatus(deviceId, readyNow);
  }

  /** A device changed; returns true when that ended its parking. */
  noteStatus(deviceId: string, ready: boolean): boolean {
    if (!this.parkedUntil.has(deviceId)) return false;
    if (!ready) {
      this.downWhileParked.add(deviceId);
      return false;
    }
    if (!this.downWhileParked.has(deviceId)) return false;
    this.parkedUntil.delete(deviceId);
    this.downWhileParked.delete(deviceId);
    return true;
  }

  /** When the modem may be offered work again; -Infinity when it is not parked. */
  parkedUntilOf(deviceId: string): number {
    return this.parkedUntil.get(deviceId) ?? Number.NEGATIVE_INFINITY;
  }
}
