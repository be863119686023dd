/**
 * Holds an AT session's commands back while the line settles, and drops every line that arrives
 * meanwhile with no command in flight (unsolicited codes never reach it: the session routes them
 * first). Two kinds of hold:
 *
 * - in step (`untilInStep`): when taking over a line, and after a timeout, until the resync
 *   machine has seen its unique probe answered (`resyncMachine.ts`). A take-over gives up after
 *   `resyncAttempts` probes (a modem that is gone, or cannot echo) and falls back to the quiet
 *   wait below. After a timeout on a line that has answered a probe, the hold lasts until it
 *   does again, however late: the session times out the commands that wait behind it, and a
 *   take-over replaces it;
 * - quiet (`untilQuiet`): until no line has come for a while; each line restarts the wait. Kept
 *   where sequence cannot be had: after a timeout on a line that has never answered a probe (port
 *   probing, a modem that cannot echo), after a take-over that gave up, and for
 *   the short grace after a `completeOnLine` completion.
 */
import type { Clock, TimerHandle } from '../../clock/clock.js';
import type { Logger } from '../../logging/logger.js';
import { redactSecrets } from './commandText.js';
import {
  isSettled,
  type ResyncState,
  type ResyncStep,
  resyncTransition,
  startResync,
} from './resyncMachine.js';

export interface LineHoldOptions {
  clock: Clock;
  log: Logger;
  /** Writes one command line (the CR is added here). */
  write(text: string): void;
  /** Called when the hold ends: the session starts its next command. */
  released(): void;
  /** Each resync step's timeout, in ms. */
  resyncTimeoutMs: number;
  resyncAttempts: number;
  /** The quiet wait after the probe went unanswered, in ms. */
  resyncQuietMs: number;
}

/** Someone awaiting the end of a hold; `quietMs` is also the fallback wait of an in-step hold. */
export interface HoldWaiter {
  quietMs: number;
  resolve(discardedLines: number): void;
  reject(error: Error): void;
}

type Hold =
  | { kind: 'quiet'; quietMs: number; timer: TimerHandle; discardedLines: number; waiter?: HoldWaiter }
  | { kind: 'inStep'; state: ResyncState; timer?: TimerHandle; discardedLines: number; waiter?: HoldWaiter };

export class LineHold {
  private hold?: Hold;
  /** The next probe's number: unique on this line, and random so another process's differs. */
  private nextNonce = 10_000 + Math.floor(Math.random() * 80_000);
  /** This line has answered a probe: it echoes, so sequence can always be restored. */
  private probeAnswered = false;

  constructor(private readonly options: LineHoldOptions) {}

  get holding(): boolean {
    return this.hold !== undefined;
  }

  /** How long one resync step may take: a command held behind a hold gets this on top of its own. */
  get stepTimeoutMs(): number {
    return this.options.resyncTimeoutMs;
  }

  /** An in-step hold after a timeout (nobody awaits it) may give way to a take-over's own. */
  get replaceable(): boolean {
    return this.hold?.kind === 'inStep' && this.hold.waiter === undefined;
  }

  untilQuiet(quietMs: number, waiter?: HoldWaiter, discardedLines = 0): void {
    this.hold?.timer?.cancel();
    const hold: Hold = { kind: 'quiet', quietMs, discardedLines, waiter, timer: this.quietTimer(quietMs) };
    this.hold = hold;
  }

  /** With a waiter: a take-over (bounded). Without: after a timeout (endless, or quiet; see above). */
  untilInStep(waiter?: HoldWaiter): void {
    if (waiter === undefined && !this.probeAnswered) {
      this.untilQuiet(this.options.resyncQuietMs);
      return;
    }
    this.hold?.timer?.cancel();
    const attempts = waiter === undefined ? Number.POSITIVE_INFINITY : this.options.resyncAttempts;
    const start = startResync(this.nextNonce, attempts);
    const hold: Hold = { kind: 'inStep', state: start.state, discardedLines: 0, waiter };
    this.hold = hold;
    this.apply(hold, start);
  }

  /** Offers a line no command waits for; true when a hold took (and dropped) it. */
  offer(line: string): boolean {
    const hold = this.hold;
    if (!hold) return false;
    if (hold.kind === 'inStep') {
      this.apply(hold, resyncTransition(hold.state, { type: 'line', line }));
      return true;
    }
    this.options.log.debug('discarding a late line while waiting for a quiet line', {
      line: redactSecrets(line),
    });
    hold.discardedLines++;
    hold.timer.cancel();
    hold.timer = this.quietTimer(hold.quietMs);
    return true;
  }

  /** Ends the hold without releasing anyone: the session is closing. */
  abandon(error: Error): void {
    this.hold?.timer?.cancel();
    this.hold?.waiter?.reject(error);
    this.hold = undefined;
  }

  private quietTimer(quietMs: number): TimerHandle {
    return this.options.clock.setTimer(() => {
      const hold = this.hold;
      if (hold?.kind !== 'quiet') return;
      this.hold = undefined;
      hold.waiter?.resolve(hold.discardedLines);
      this.options.released();
    }, quietMs);
  }

  private apply(hold: Extract<Hold, { kind: 'inStep' }>, step: ResyncStep): void {
    if (this.hold !== hold) return;
    hold.state = step.state;
    for (const action of step.actions) {
      if (action.type === 'discard') {
        hold.discardedLines++;
        this.options.log.debug('discarding a line while resynchronising', {
          line: redactSecrets(action.line),
        });
        continue;
      }
      hold.timer?.cancel();
      hold.timer = this.options.clock.setTimer(
        () => this.apply(hold, resyncTransition(hold.state, { type: 'timeout' })),
        this.options.resyncTimeoutMs,
      );
      this.options.write(`${action.command}\r`);
    }
    if (!isSettled(hold.state)) return;
    hold.timer?.cancel();
    this.hold = undefined;
    this.nextNonce = hold.state.nonce + 1;
    if (hold.state.name === 'gaveUp') {
      this.options.log.warn(
        'the modem did not answer the resynchronising probe; waiting for a quiet line instead',
        {
          attempts: this.options.resyncAttempts,
        },
      );
      this.untilQuiet(hold.waiter?.quietMs ?? this.options.resyncQuietMs, hold.waiter, hold.discardedLines);
      return;
    }
    this.probeAnswered = true;
    hold.waiter?.resolve(hold.discardedLines);
    this.options.released();
  }
}
