/**
 * The command half of an AT session: runs one command at a time in call order, drives the
 * `> ` prompt exchange of AT+CMGS through its state machine (`sendPduMachine.ts`), times
 * everything out on the injected clock, and holds the next command while the line settles
 * (`lineHold.ts`). It sees only the lines the URC assembly passed on (`urcAssembly.ts`).
 *
 * The waiter (the `active` exchange) exists before the command's bytes are written, so a fast
 * reply cannot be lost (pattern: zigbee-herdsman's waitress).
 *
 * After any timeout a late answer would complete the NEXT command, so that command is held
 * until the line is in step again, by sequence, not by silence (`lineHold.ts`, `resyncMachine.ts`).
 * A final result that arrives with no command in flight is dropped.
 *
 * A short quiet hold follows a `completeOnLine` completion: most modems send the OK Wavecom leaves
 * out, right behind the line. When a command's own echo arrives (ATE1), lines collected before it
 * are dropped: they belonged to an earlier command.
 */
import type { Clock, TimerHandle } from '../../clock/clock.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { redactSecrets } from './commandText.js';
import { classifyFinalResult, type FinalResult, finalResultError } from './finalResults.js';
import type { LineFramer } from './lineFramer.js';
import { type HoldWaiter, LineHold } from './lineHold.js';
import {
  initialSendPduState,
  isTerminal,
  type SendPduEvent,
  type SendPduState,
  transition,
} from './sendPduMachine.js';

/** Information lines only: echo and final result are stripped. */
export interface AtResponse {
  lines: string[];
}

export interface AtCommandOptions {
  /** The wait for the final result (default: the session's `defaultTimeoutMs`). */
  timeoutMs?: number;
  /** Some modems omit the final OK (Wavecom AT+CPIN?): complete when a line matches. */
  completeOnLine?: RegExp;
}

/**
 * The two waits of an `AT+CMGS` exchange, in ms. The session keeps no default for them: the
 * caller's settings decide (the modem driver's, `ModemTimingOptions` in server/devices/modem/modemTiming.ts).
 */
export interface PduWaits {
  /** `AT+CMGS` until its "> " prompt. */
  promptTimeoutMs: number;
  /** After Ctrl-Z, until the network's result (`+CMGS:`). */
  resultTimeoutMs: number;
}

export interface CommandRunnerOptions {
  clock: Clock;
  log: Logger;
  /** The session's writer (it traces what goes out). */
  write(data: string): Promise<void>;
  /** The runner sets `expectPrompt` during a send and shows the unfinished line in timeout errors. */
  framer: Pick<LineFramer, 'expectPrompt' | 'pending'>;
  /** Whether the session is open: nothing starts while it is not. */
  opened(): boolean;
  /** Called as each command is written (the URC assembly watches for AT+CUSD=1). */
  started(command: string): void;
  /** The waits, in ms (see `defaultAtSessionTiming`). */
  defaultTimeoutMs: number;
  completeOnLineGraceMs: number;
  resyncTimeoutMs: number;
  resyncAttempts: number;
  resyncQuietMs: number;
}

/** The command fields a caller gives; the runner adds the label and the promise's ends. */
export type CommandRequest = Pick<Job, 'command' | 'pdu' | 'options'>;

const CTRL_Z = '\x1a';
const ESC = '\x1b';

interface Job {
  command: string;
  /** The command as any message or log may show it: secrets masked (`redactSecrets`). */
  label: string;
  /** Present for a send: the PDU's hex and the waits of its exchange. */
  pdu?: { hex: string; waits: PduWaits };
  options: AtCommandOptions;
  /** Runs while the job waits behind a hold (see `timeHeldJob`). */
  heldTimer?: TimerHandle;
  resolve(response: AtResponse): void;
  reject(error: Error): void;
}

/** A take-over of the line (`takeOver`), queued in order with the commands. */
type LineTakeOver = HoldWaiter;

interface Exchange {
  job: Job;
  lines: string[];
  timer?: TimerHandle;
  /** Present for sendPdu exchanges only. */
  pduState?: SendPduState;
}

export class CommandRunner {
  private readonly hold: LineHold;
  private readonly queue: Array<Job | LineTakeOver> = [];
  private active?: Exchange;
  /** A final result with no command in flight is logged as a warning once per session. */
  private warnedIdleFinal = false;

  constructor(private readonly options: CommandRunnerOptions) {
    this.hold = new LineHold({
      clock: options.clock,
      log: options.log,
      write: (text) => this.writeOrWarn(text),
      released: () => this.pump(),
      resyncTimeoutMs: options.resyncTimeoutMs,
      resyncAttempts: options.resyncAttempts,
      resyncQuietMs: options.resyncQuietMs,
    });
  }

  /** The command being run (without its CR), which decides what counts as its own answer. */
  get commandInFlight(): string | undefined {
    return this.active?.job.command;
  }

  /** Queues a command behind every one queued before it; `label` is its redacted text. */
  enqueue(request: CommandRequest, label: string): Promise<AtResponse> {
    return new Promise<AtResponse>((resolve, reject) => {
      this.queue.push({ ...request, label, resolve, reject });
      this.pump();
    });
  }

  /** Queues ESC and a resync by sequence (see `AtSession.cancelPendingInput`). */
  takeOver(quietMs: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ quietMs, resolve, reject });
      this.pump();
    });
  }

  /** The `> ` prompt of a send. */
  handlePrompt(): void {
    const exchange = this.active;
    if (exchange?.pduState) this.feed(exchange, { type: 'prompt' });
    else this.options.log.warn('unexpected "> " prompt');
  }

  /** A line that is no unsolicited code: the command's answer, or noise while idle. */
  handleLine(line: string): void {
    const exchange = this.active;
    if (!exchange) {
      if (!this.hold.offer(line)) this.discardIdle(line);
      return;
    }
    if (this.isEcho(line, exchange)) {
      // Anything collected before our own echo belonged to an earlier command.
      exchange.lines = [];
      return;
    }
    const final = classifyFinalResult(line, exchange.job.command);
    if (final) {
      this.complete(exchange, final);
      return;
    }
    exchange.lines.push(line);
    const completeOn = exchange.job.options.completeOnLine;
    if (!exchange.pduState && completeOn?.test(line)) {
      this.finish(exchange, undefined);
      this.hold.untilQuiet(this.options.completeOnLineGraceMs);
    }
  }

  /** The session closed: the hold and every command, running or queued, reject with `error`. */
  failEverything(error: GatewayError, holdError?: GatewayError): void {
    if (holdError) this.hold.abandon(holdError);
    const exchange = this.active;
    if (exchange) {
      exchange.timer?.cancel();
      this.active = undefined;
      exchange.job.reject(error);
    }
    for (const job of this.queue.splice(0)) {
      if ('command' in job) job.heldTimer?.cancel();
      job.reject(error);
    }
    this.options.framer.expectPrompt = false;
  }

  private pump(): void {
    if (this.active || !this.options.opened()) return;
    const head = this.queue[0];
    // A take-over starts a resync of its own, bounded, rather than wait behind an endless one.
    const takeOverNow = head !== undefined && !('command' in head) && this.hold.replaceable;
    if (this.hold.holding && !takeOverNow) {
      this.timeHeldJob();
      return;
    }
    const next = this.queue.shift();
    if (next === undefined) return;
    if ('command' in next) {
      next.heldTimer?.cancel();
      this.start(next);
      return;
    }
    this.writeOrWarn(ESC);
    this.hold.untilInStep(next);
  }

  /**
   * The next command waits behind a hold for one resync step and its own timeout, no longer: a
   * modem that stopped answering must not hang its callers (the hold goes on for the next ones).
   */
  private timeHeldJob(): void {
    const job = this.queue[0];
    if (job === undefined || !('command' in job) || job.heldTimer) return;
    const timeoutMs = this.hold.stepTimeoutMs + this.firstTimeout(job);
    job.heldTimer = this.options.clock.setTimer(() => {
      if (this.queue[0] !== job) return;
      this.queue.shift();
      const what = `${job.label} timed out: the line was not back in step within ${timeoutMs} ms`;
      job.reject(new GatewayError(ErrorCode.AtTimeout, what, { partialResponse: [] }));
      this.pump();
    }, timeoutMs);
  }

  /** A send first waits for its prompt, any other command for its final result. */
  private firstTimeout(job: Job): number {
    return job.pdu ? job.pdu.waits.promptTimeoutMs : (job.options.timeoutMs ?? this.options.defaultTimeoutMs);
  }

  private start(job: Job): void {
    const exchange: Exchange = { job, lines: [] };
    if (job.pdu) {
      exchange.pduState = initialSendPduState;
      this.options.framer.expectPrompt = true;
    }
    this.active = exchange;
    this.armTimer(exchange, this.firstTimeout(job));
    this.options.started(job.command);
    this.options.write(`${job.command}\r`).catch((error: unknown) => {
      if (this.active !== exchange) return;
      if (exchange.pduState) this.feed(exchange, { type: 'writeFailed' }, error);
      else this.finish(exchange, asError(error));
    });
  }

  private armTimer(exchange: Exchange, timeoutMs: number): void {
    exchange.timer?.cancel();
    exchange.timer = this.options.clock.setTimer(() => this.handleTimeout(exchange, timeoutMs), timeoutMs);
  }

  private handleTimeout(exchange: Exchange, timeoutMs: number): void {
    if (this.active !== exchange) return;
    if (exchange.pduState) {
      this.feed(exchange, { type: 'timeout' }, undefined, timeoutMs);
      return;
    }
    this.finish(exchange, this.timeoutError(exchange, `no final result within ${timeoutMs} ms`));
    this.hold.untilInStep();
  }

  private timeoutError(exchange: Exchange, what: string): GatewayError {
    const partialResponse = exchange.lines.map(redactSecrets);
    const unfinished = this.options.framer.pending;
    if (unfinished.length > 0) partialResponse.push(redactSecrets(unfinished));
    return new GatewayError(ErrorCode.AtTimeout, `${exchange.job.label} timed out: ${what}`, {
      partialResponse,
    });
  }

  private feed(exchange: Exchange, event: SendPduEvent, cause?: unknown, timeoutMs?: number): void {
    const before = exchange.pduState ?? initialSendPduState;
    const step = transition(before, event);
    exchange.pduState = step.state;
    for (const action of step.actions) {
      if (action === 'writePdu') this.writePdu(exchange);
      else if (action === 'writeEscape') this.writeOrWarn(ESC);
      else if (exchange.job.pdu) this.armTimer(exchange, exchange.job.pdu.waits.resultTimeoutMs);
    }
    const state = step.state;
    if (!isTerminal(state)) return;
    if (state.name === 'done') {
      this.finish(exchange, undefined);
      return;
    }
    if (state.name !== 'failed') return;
    const command = exchange.job.label;
    switch (state.reason) {
      case 'rejectedBeforePrompt':
      case 'rejected':
        this.finish(exchange, finalResultError(state.result, command, exchange.lines.map(redactSecrets)));
        return;
      case 'noPrompt':
        this.finish(
          exchange,
          new GatewayError(ErrorCode.AtError, `${command} answered OK without a "> " prompt`),
        );
        return;
      case 'promptTimeout':
        this.finish(exchange, this.timeoutError(exchange, `no "> " prompt within ${timeoutMs} ms`));
        this.hold.untilInStep();
        return;
      case 'resultTimeout':
        this.finish(exchange, this.timeoutError(exchange, `no result for the PDU within ${timeoutMs} ms`));
        this.hold.untilInStep();
        return;
      case 'writeFailed':
        this.finish(exchange, asError(cause));
        return;
      case 'sessionClosed':
        this.finish(
          exchange,
          new GatewayError(ErrorCode.AtSessionClosed, `AT session closed during ${command}`),
        );
        return;
    }
  }

  private writePdu(exchange: Exchange): void {
    this.options.framer.expectPrompt = false;
    this.options.write(`${exchange.job.pdu?.hex ?? ''}${CTRL_Z}`).then(
      () => {
        if (this.active === exchange) this.feed(exchange, { type: 'pduWritten' });
      },
      (error: unknown) => {
        if (this.active === exchange) this.feed(exchange, { type: 'writeFailed' }, error);
      },
    );
  }

  /** Ends the exchange: resolves with its lines, or rejects with `error`. Starts the next job. */
  private finish(exchange: Exchange, error: Error | undefined): void {
    if (this.active !== exchange) return;
    exchange.timer?.cancel();
    this.active = undefined;
    this.options.framer.expectPrompt = false;
    if (error) exchange.job.reject(error);
    else exchange.job.resolve({ lines: exchange.lines });
    // Resolution callbacks run later (microtasks): the next command starts on this tick, which
    // keeps the call order and cannot interleave with a line from the transport.
    queueMicrotask(() => this.pump());
  }

  private complete(exchange: Exchange, final: FinalResult): void {
    if (exchange.pduState) {
      this.feed(exchange, { type: 'final', result: final });
      return;
    }
    this.finish(
      exchange,
      final.kind === 'ok'
        ? undefined
        : finalResultError(final, exchange.job.label, exchange.lines.map(redactSecrets)),
    );
  }

  private isEcho(line: string, exchange: Exchange): boolean {
    const text = line.trim();
    if (text.toUpperCase() === exchange.job.command.trim().toUpperCase()) return true;
    // With ATE1 many modems also echo the PDU they were given, Ctrl-Z included.
    const pdu = exchange.job.pdu?.hex;
    return pdu !== undefined && text.replace(CTRL_Z, '').toUpperCase() === pdu.toUpperCase();
  }

  /** A line while the session is idle and not holding: noise, or a late answer. Dropped. */
  private discardIdle(line: string): void {
    const fields = { line: redactSecrets(line) };
    if (classifyFinalResult(line) === undefined || this.warnedIdleFinal) {
      this.options.log.debug('discarding line with no command in flight', fields);
      return;
    }
    this.warnedIdleFinal = true;
    this.options.log.warn('dropped a final result that came with no command in flight', fields);
  }

  /** For writes no caller awaits (ESC, resync probes): a failure is only worth a warning. */
  private writeOrWarn(text: string): void {
    this.options.write(text).catch((error: unknown) => this.options.log.warn('write failed', { error }));
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
