import type { Clock, TimerHandle } from './clock.js';

interface PendingTimer {
  dueAt: number;
  order: number;
  callback: () => void;
  cancelled: boolean;
}

/**
 * A clock that moves only when told. `advance` fires due timers in time order and lets
 * promise continuations run between them, so async code observes each step.
 */
export class ManualClock implements Clock {
  private current: number;
  private timers: PendingTimer[] = [];
  private nextOrder = 0;

  constructor(start: number = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    const timer: PendingTimer = {
      dueAt: this.current + Math.max(0, delayMs),
      order: this.nextOrder++,
      callback,
      cancelled: false,
    };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Number of timers still waiting to fire. */
  get pendingTimers(): number {
    return this.timers.filter((timer) => !timer.cancelled).length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await flushMicrotasks();
      const next = this.nextDue(target);
      if (!next) break;
      this.timers = this.timers.filter((timer) => timer !== next);
      this.current = Math.max(this.current, next.dueAt);
      next.callback();
    }
    this.current = target;
    await flushMicrotasks();
  }

  /** Moves time to the next timer and fires it; returns false when none is waiting. */
  async advanceToNext(): Promise<boolean> {
    await flushMicrotasks();
    const next = this.nextDue(Number.POSITIVE_INFINITY);
    if (!next) return false;
    await this.advance(next.dueAt - this.current);
    return true;
  }

  private nextDue(limit: number): PendingTimer | undefined {
    this.timers = this.timers.filter((timer) => !timer.cancelled);
    let best: PendingTimer | undefined;
    for (const timer of this.timers) {
      if (timer.dueAt > limit) continue;
      if (!best || timer.dueAt < best.dueAt || (timer.dueAt === best.dueAt && timer.order < best.order)) {
        best = timer;
      }
    }
    return best;
  }
}

async function flushMicrotasks(): Promise<void> {
  // setImmediate runs after every promise continuation queued so far.
  for (let round = 0; round < 5; round++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
