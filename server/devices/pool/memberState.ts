import type { Clock } from '../../clock/clock.js';
import type { ModemStatus } from '../../contract/domain/device.js';

/**
 * The status of a pool member that speaks no AT (a HiLink stick, an Android phone): the status
 * with its reason in words, the last sign of life, and the listeners told of every change.
 */
export class MemberState {
  private status_: ModemStatus = 'starting';
  private detail_?: string;
  private lastSeen_ = 0;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly clock: Clock) {}

  get status(): ModemStatus {
    return this.status_;
  }

  get detail(): string | undefined {
    return this.detail_;
  }

  /** When it last answered (clock ms; 0 before it ever did). */
  get lastSeen(): number {
    return this.lastSeen_;
  }

  /** Called on every status or detail change. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  set(status: ModemStatus, detail?: string): void {
    if (this.status_ === status && this.detail_ === detail) return;
    this.status_ = status;
    this.detail_ = detail;
    this.changed();
  }

  /** A sign of life (`lastSeen`). */
  touch(): void {
    this.lastSeen_ = this.clock.now();
  }

  /** Tells the listeners that something they show changed. */
  changed(): void {
    for (const listener of this.listeners) listener();
  }
}
