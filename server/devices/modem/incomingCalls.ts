import type { Clock, TimerHandle } from '../../clock/clock.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { UnsolicitedCode } from '../at/atSession.js';
import type { CallSink, IncomingCall } from '../pool/sinks.js';

export interface IncomingCallsOptions {
  deviceId: () => string;
  clock: Clock;
  logger: Logger;
  /** Whether this modem hangs up on calls (per-modem setting, default yes). */
  rejectCalls: () => boolean;
  /** Hangs up (`ATH` / `AT+CHUP`), in the modem's exclusive lane so no send is disturbed. */
  hangUp: () => Promise<void>;
  onCall: CallSink;
}

/** How long a RING waits for its +CLIP (modems send it right after each RING). */
const clipWaitMs = 1_500;
/**
 * RING repeats every few seconds while a call rings (V.250 §6.3.4, typically 3–6 s): a gap this
 * long means the call is over, and the next RING is a new call.
 */
const ringGapMs = 10_000;

interface RingingCall {
  at: number;
  number?: string;
  /** Recorded (and hung up, if so set) already; later RINGs of the same call are ignored. */
  settled: boolean;
  clipTimer?: TimerHandle;
  gapTimer?: TimerHandle;
}

/**
 * Incoming voice calls from `RING` / `+CRING` and `+CLIP` (TS 27.007 §7.6, enabled with
 * AT+CLIP=1): each call is recorded once, as missed, and hung up when the modem is set to
 * reject calls. `NO CARRIER` or a pause in the ringing ends it.
 */
export class IncomingCalls {
  private ringing?: RingingCall;

  constructor(private readonly options: IncomingCallsOptions) {}

  /** Takes the codes about calls; returns false for any other code. */
  handleUnsolicited(code: UnsolicitedCode): boolean {
    switch (code.name) {
      case 'RING':
      case '+CRING': {
        const call = this.ring();
        if (!call.settled && !call.clipTimer) {
          call.clipTimer = this.options.clock.setTimer(() => this.settle(call), clipWaitMs);
        }
        return true;
      }
      case '+CLIP': {
        const call = this.ring();
        const number = parseClipNumber(code.args);
        if (number && call.number === undefined) call.number = number;
        this.settle(call);
        return true;
      }
      case 'NO CARRIER':
        if (this.ringing) this.end(this.ringing);
        return true;
      default:
        return false;
    }
  }

  /** Forgets a ringing call (the modem closed or restarts). */
  reset(): void {
    if (this.ringing) this.end(this.ringing);
  }

  private ring(): RingingCall {
    let call = this.ringing;
    if (!call) {
      call = { at: this.options.clock.now(), settled: false };
      this.ringing = call;
    }
    const current = call;
    current.gapTimer?.cancel();
    current.gapTimer = this.options.clock.setTimer(() => this.end(current), ringGapMs);
    return current;
  }

  private settle(call: RingingCall): void {
    call.clipTimer?.cancel();
    call.clipTimer = undefined;
    if (call.settled) return;
    call.settled = true;
    if (!this.options.rejectCalls()) {
      this.record(call, false);
      return;
    }
    this.options.hangUp().then(
      () => this.record(call, true),
      (error: unknown) => {
        this.options.logger.warn('could not hang up an incoming call', { error: describeError(error) });
        this.record(call, false);
      },
    );
  }

  private record(call: RingingCall, rejected: boolean): void {
    const incoming: IncomingCall = { deviceId: this.options.deviceId(), at: call.at, rejected };
    if (call.number !== undefined) incoming.number = call.number;
    this.options.logger.info(rejected ? 'incoming call rejected' : 'incoming call not answered', {
      number: call.number,
    });
    this.options.onCall(incoming);
  }

  /** The call stopped ringing; one that ended before its +CLIP is recorded without hanging up. */
  private end(call: RingingCall): void {
    call.clipTimer?.cancel();
    call.gapTimer?.cancel();
    if (!call.settled) {
      call.settled = true;
      this.record(call, false);
    }
    if (this.ringing === call) this.ringing = undefined;
  }
}

/** `"+447700900123",145,,,,0` → "+447700900123"; undefined for an empty (withheld) number. */
export function parseClipNumber(args: string): string | undefined {
  const match = /^\s*"([^"]*)"/.exec(args);
  const number = match?.[1]?.trim();
  return number ? number : undefined;
}
