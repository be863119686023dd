/**
 * One AT session over one transport: frames lines, routes unsolicited codes, runs one command
 * at a time in call order, handles the `> ` prompt of AT+CMGS and times everything out on the
 * injected clock.
 *
 * Every line is offered to the URC classifier first (`unsolicited.ts`); only the rest can
 * complete the command in flight. The waiter (the `active` exchange) exists before the command's
 * bytes are written, so a fast reply cannot be lost (pattern: zigbee-herdsman's waitress).
 *
 * After any timeout a late answer would complete the NEXT command, so that command is held
 * until the line is in step again, by sequence, not by silence (`lineHold.ts`, `resyncMachine.ts`).
 * A final result that arrives with no command in flight is dropped.
 *
 * Taking over a line: a modem outlives the process that talks to it. If that process died after
 * `AT+CMGS=<n>` drew the `> ` prompt, the modem still collects PDU characters and would swallow
 * every command. `cancelPendingInput` writes ESC, which cancels the edited message (TS 27.005
 * §3.5.1, answered OK) and is ignored in command mode (V.250 §5.2.1), then resynchronises the
 * same way: nothing the dead process is owed may answer the next command.
 *
 * A short quiet hold follows a `completeOnLine` completion: most modems send the OK Wavecom leaves
 * out, right behind the line. When a command's own echo arrives (ATE1), lines collected before it
 * are dropped: they belonged to an earlier command.
 */
import type { Clock, TimerHandle } from '../clock/clock.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import type { Transport } from '../transport/transport.js';
import { escapeControls, redactSecrets } from './commandText.js';
import { classifyFinalResult, type FinalResult, finalResultError } from './finalResults.js';
import { type FramerEvent, LineFramer } from './lineFramer.js';
import { type HoldWaiter, LineHold } from './lineHold.js';
import {
  initialSendPduState,
  isTerminal,
  type SendPduEvent,
  type SendPduState,
  transition,
} from './sendPduMachine.js';
import { classifyUnsolicited, hasOpenQuote, type UrcMatch } from './unsolicited.js';

export { redactSecrets } from './commandText.js';

/** Most lines a `+CUSD:` text may continue over; a modem that never closes the quote loses no more. */
const maxUssdContinuationLines = 16;

export interface AtSessionOptions {
  clock: Clock;
  logger: Logger;
  /** The fields below: see `defaultAtSessionTiming`, which fills in any left out. */
  defaultTimeoutMs?: number;
  promptTimeoutMs?: number;
  pduResultTimeoutMs?: number;
  resyncTimeoutMs?: number;
  resyncAttempts?: number;
  resyncQuietMs?: number;
  completeOnLineGraceMs?: number;
}

/**
 * The waits of a session (ms) and its take-over probes: the one place their defaults are set.
 * `GatewayOptions.atSession` (server/config/options.ts) carries them to every session the pool opens.
 */
export type AtSessionTiming = Required<Omit<AtSessionOptions, 'clock' | 'logger'>>;

export const defaultAtSessionTiming: AtSessionTiming = {
  /** A command that names no timeout. */
  defaultTimeoutMs: 10_000,
  /** `AT+CMGS` until its "> " prompt. */
  promptTimeoutMs: 10_000,
  /** After Ctrl-Z, until the network accepts the PDU (`+CMGS:`). */
  pduResultTimeoutMs: 60_000,
  /** Each step of resynchronising by sequence after a timeout or on a take-over (`resyncMachine.ts`). */
  resyncTimeoutMs: 2_000,
  /** Probes a take-over tries before it settles for a quiet wait (a count, not ms; `lineHold.ts`). */
  resyncAttempts: 3,
  /** The quiet wait used instead of a probe on a line that never answered one (port probing). */
  resyncQuietMs: 1_000,
  /** Quiet after a `completeOnLine` match, for a trailing OK. */
  completeOnLineGraceMs: 300,
};

/** Information lines only: echo and final result are stripped. */
export interface AtResponse {
  lines: string[];
}

export interface AtCommandOptions {
  /** For `execute`: the whole command. For `sendPdu`: the wait for the result after Ctrl-Z. */
  timeoutMs?: number;
  /** For `sendPdu`: the wait for the "> " prompt (default: the session's `promptTimeoutMs`). */
  promptTimeoutMs?: number;
  /** Some modems omit the final OK (Wavecom AT+CPIN?): complete when a line matches. */
  completeOnLine?: RegExp;
}

export interface UnsolicitedCode {
  /** '+CMTI', 'RING', '^RSSI' … */
  name: string;
  args: string;
  line: string;
  /** The following PDU line for +CMT / +CDS / +CBM. */
  pdu?: string;
}

const CTRL_Z = '\x1a';
const ESC = '\x1b';

interface Job {
  command: string;
  /** The command as any message or log may show it: secrets masked (`redactSecrets`). */
  label: string;
  pdu?: string;
  options: AtCommandOptions;
  /** Runs while the job waits behind a hold (see `timeHeldJob`). */
  heldTimer?: TimerHandle;
  resolve(response: AtResponse): void;
  reject(error: Error): void;
}

/** A take-over of the line (`cancelPendingInput`), queued in order with the commands. */
type LineTakeOver = HoldWaiter;

interface Exchange {
  job: Job;
  lines: string[];
  timer?: TimerHandle;
  /** Present for sendPdu exchanges only. */
  pduState?: SendPduState;
}

export class AtSession {
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly defaultTimeoutMs: number;
  private readonly promptTimeoutMs: number;
  private readonly pduResultTimeoutMs: number;
  private readonly completeOnLineGraceMs: number;
  private readonly framer = new LineFramer();
  private readonly hold: LineHold;
  private readonly queue: Array<Job | LineTakeOver> = [];
  private readonly urcListeners = new Set<(code: UnsolicitedCode) => void>();
  private readonly closeListeners = new Set<(error?: Error) => void>();
  private unsubscribers: Array<() => void> = [];
  private active?: Exchange;
  /** AT+CUSD=1 went out and its `+CUSD:` answer has not come yet. */
  private ussdAwaited = false;
  /** A +CMT / +CDS header whose PDU line is still to come, or a +CUSD text still open. */
  private pendingUrc?: { match: UrcMatch; line: string; continuations?: number };
  /** A final result with no command in flight is logged as a warning once per session. */
  private warnedIdleFinal = false;
  private opened = false;

  constructor(
    private readonly transport: Transport,
    options: AtSessionOptions,
  ) {
    this.clock = options.clock;
    this.log = options.logger.child(`at:${transport.description}`);
    const defaults = defaultAtSessionTiming;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? defaults.defaultTimeoutMs;
    this.promptTimeoutMs = options.promptTimeoutMs ?? defaults.promptTimeoutMs;
    this.pduResultTimeoutMs = options.pduResultTimeoutMs ?? defaults.pduResultTimeoutMs;
    this.completeOnLineGraceMs = options.completeOnLineGraceMs ?? defaults.completeOnLineGraceMs;
    this.hold = new LineHold({
      clock: this.clock,
      log: this.log,
      write: (text) => void this.write(text).catch((error: unknown) => this.logWriteFailure(error)),
      released: () => this.pump(),
      resyncTimeoutMs: options.resyncTimeoutMs ?? defaults.resyncTimeoutMs,
      resyncAttempts: options.resyncAttempts ?? defaults.resyncAttempts,
      resyncQuietMs: options.resyncQuietMs ?? defaults.resyncQuietMs,
    });
  }

  get isOpen(): boolean {
    return this.opened && this.transport.isOpen;
  }

  /** Opens the transport and starts reading. */
  async open(): Promise<void> {
    if (this.opened) return;
    this.framer.reset();
    this.unsubscribers = [
      this.transport.onData((chunk) => this.handleChunk(chunk)),
      this.transport.onClose((error) => this.handleClosed(error)),
    ];
    try {
      await this.transport.open();
    } catch (error) {
      this.unsubscribe();
      throw error;
    }
    this.opened = true;
    this.log.debug('session open', { transport: this.transport.description });
  }

  /** Closes the transport; pending and queued commands reject with AtSessionClosed. */
  async close(): Promise<void> {
    if (!this.opened) return;
    this.failEverything(new GatewayError(ErrorCode.AtSessionClosed, 'AT session closed'));
    await this.transport.close();
    this.handleClosed(undefined);
  }

  /** Runs one command (without the trailing CR) after every command queued before it. */
  execute(command: string, options: AtCommandOptions = {}): Promise<AtResponse> {
    return this.enqueue({ command, options });
  }

  /**
   * TS 27.005 §3.5.1: writes `command` (e.g. 'AT+CMGS=23'), waits for the "> " prompt, writes
   * the PDU hex and Ctrl-Z, and resolves with the information lines ("+CMGS: <mr>").
   */
  sendPdu(command: string, pduHex: string, options: AtCommandOptions = {}): Promise<AtResponse> {
    return this.enqueue({ command, pdu: pduHex, options });
  }

  /**
   * Writes ESC, then resynchronises by sequence: the first step on a line another process may
   * have left in the middle of `AT+CMGS` (see the class comment). Resolves with the number of
   * lines discarded; `quietMs` is the wait used instead when the modem never answers the probe.
   */
  cancelPendingInput(quietMs: number): Promise<number> {
    if (!this.isOpen) {
      return Promise.reject(new GatewayError(ErrorCode.AtSessionClosed, 'AT session is not open'));
    }
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ quietMs, resolve, reject });
      this.pump();
    });
  }

  onUnsolicited(listener: (code: UnsolicitedCode) => void): () => void {
    this.urcListeners.add(listener);
    return () => this.urcListeners.delete(listener);
  }

  onClose(listener: (error?: Error) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  private enqueue(request: Pick<Job, 'command' | 'pdu' | 'options'>): Promise<AtResponse> {
    // The one place command text becomes a string anyone may see (errors, status, logs).
    const label = redactSecrets(request.command);
    if (!this.isOpen) {
      return Promise.reject(
        new GatewayError(ErrorCode.AtSessionClosed, `cannot run ${label}: AT session is not open`),
      );
    }
    return new Promise<AtResponse>((resolve, reject) => {
      this.queue.push({ ...request, label, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.active || !this.opened) return;
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
    this.write(ESC).catch((error: unknown) => this.logWriteFailure(error));
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
    job.heldTimer = this.clock.setTimer(() => {
      if (this.queue[0] !== job) return;
      this.queue.shift();
      const what = `${job.label} timed out: the line was not back in step within ${timeoutMs} ms`;
      job.reject(new GatewayError(ErrorCode.AtTimeout, what, { partialResponse: [] }));
      this.pump();
    }, timeoutMs);
  }

  /** A send first waits for its prompt, any other command for its final result. */
  private firstTimeout(job: Job): number {
    return job.pdu !== undefined
      ? (job.options.promptTimeoutMs ?? this.promptTimeoutMs)
      : (job.options.timeoutMs ?? this.defaultTimeoutMs);
  }

  private start(job: Job): void {
    const exchange: Exchange = { job, lines: [] };
    if (job.pdu !== undefined) {
      exchange.pduState = initialSendPduState;
      this.framer.expectPrompt = true;
    }
    this.active = exchange;
    this.armTimer(exchange, this.firstTimeout(job));
    if (/^AT\+CUSD=1\b/i.test(job.command)) this.ussdAwaited = true;
    this.write(`${job.command}\r`).catch((error: unknown) => {
      if (this.active !== exchange) return;
      if (exchange.pduState) this.feed(exchange, { type: 'writeFailed' }, error);
      else this.finish(exchange, asError(error));
    });
  }

  private armTimer(exchange: Exchange, timeoutMs: number): void {
    exchange.timer?.cancel();
    exchange.timer = this.clock.setTimer(() => this.handleTimeout(exchange, timeoutMs), timeoutMs);
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
    if (this.framer.pending.length > 0) partialResponse.push(redactSecrets(this.framer.pending));
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
      else if (action === 'writeEscape')
        this.write(ESC).catch((error: unknown) => this.logWriteFailure(error));
      else this.armTimer(exchange, exchange.job.options.timeoutMs ?? this.pduResultTimeoutMs);
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
    this.framer.expectPrompt = false;
    this.write(`${exchange.job.pdu ?? ''}${CTRL_Z}`).then(
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
    this.framer.expectPrompt = false;
    if (error) exchange.job.reject(error);
    else exchange.job.resolve({ lines: exchange.lines });
    // Resolution callbacks run later (microtasks): the next command starts on this tick, which
    // keeps the call order and cannot interleave with a line from the transport.
    queueMicrotask(() => this.pump());
  }

  private handleChunk(chunk: Buffer): void {
    const events = this.framer.push(chunk.toString('latin1'));
    for (const event of events) this.handleEvent(event);
  }

  private handleEvent(event: FramerEvent): void {
    if (event.kind === 'prompt') {
      this.trace('«', '> ');
      const exchange = this.active;
      if (exchange?.pduState) this.feed(exchange, { type: 'prompt' });
      else this.log.warn('unexpected "> " prompt');
      return;
    }
    this.handleLine(event.line);
  }

  private handleLine(line: string): void {
    this.trace('«', line);
    const pendingUrc = this.pendingUrc;
    if (pendingUrc?.match.name === '+CUSD') {
      this.pendingUrc = undefined;
      // A final result ends a text that was never closed: the line is the command's, not USSD.
      if (classifyFinalResult(line, this.active?.job.command) === undefined) {
        this.continueUssd(pendingUrc, line);
        return;
      }
      this.emitUrc({ name: pendingUrc.match.name, args: pendingUrc.match.args, line: pendingUrc.line });
    } else if (pendingUrc) {
      this.pendingUrc = undefined;
      this.emitUrc({
        name: pendingUrc.match.name,
        args: pendingUrc.match.args,
        line: pendingUrc.line,
        pdu: line,
      });
      return;
    }
    const exchange = this.active;
    const command = exchange?.job.command;
    const urc = classifyUnsolicited(line, command);
    if (urc) {
      // A +CUSD text runs over several lines only as the answer to our own AT+CUSD=1: a stray
      // or broken +CUSD must not swallow the lines of the commands that follow it.
      const continues = urc.takesNextLine && (urc.name !== '+CUSD' || this.ussdAwaited);
      if (continues) this.pendingUrc = { match: urc, line };
      else this.emitUrc({ name: urc.name, args: urc.args, line });
      return;
    }
    if (!exchange) {
      if (!this.hold.offer(line)) this.discardIdle(line);
      return;
    }
    if (this.isEcho(line, exchange)) {
      // Anything collected before our own echo belonged to an earlier command.
      exchange.lines = [];
      return;
    }
    const final = classifyFinalResult(line, command);
    if (final) {
      this.complete(exchange, final);
      return;
    }
    exchange.lines.push(line);
    const completeOn = exchange.job.options.completeOnLine;
    if (!exchange.pduState && completeOn?.test(line)) {
      this.finish(exchange, undefined);
      this.hold.untilQuiet(this.completeOnLineGraceMs);
    }
  }

  /** One more line of a multi-line `+CUSD:` text; emitted once its quote closes. */
  private continueUssd(
    pending: { match: UrcMatch; line: string; continuations?: number },
    line: string,
  ): void {
    const args = `${pending.match.args}\n${line}`;
    const whole = `${pending.line}\n${line}`;
    const continuations = (pending.continuations ?? 0) + 1;
    if (hasOpenQuote(args) && continuations < maxUssdContinuationLines) {
      this.pendingUrc = { match: { ...pending.match, args }, line: whole, continuations };
      return;
    }
    this.emitUrc({ name: pending.match.name, args, line: whole });
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
    const pdu = exchange.job.pdu;
    return pdu !== undefined && text.replace(CTRL_Z, '').toUpperCase() === pdu.toUpperCase();
  }

  /** A line while the session is idle and not holding: noise, or a late answer. Dropped. */
  private discardIdle(line: string): void {
    const fields = { line: redactSecrets(line) };
    if (classifyFinalResult(line) === undefined || this.warnedIdleFinal) {
      this.log.debug('discarding line with no command in flight', fields);
      return;
    }
    this.warnedIdleFinal = true;
    this.log.warn('dropped a final result that came with no command in flight', fields);
  }

  private emitUrc(code: UnsolicitedCode): void {
    if (code.name === '+CUSD') this.ussdAwaited = false;
    for (const listener of this.urcListeners) {
      try {
        listener(code);
      } catch (error) {
        this.log.error('unsolicited code listener failed', { code: code.name, error });
      }
    }
  }

  private write(data: string): Promise<void> {
    this.trace('»', data);
    return this.transport.write(Buffer.from(data, 'latin1'));
  }

  private logWriteFailure(error: unknown): void {
    this.log.warn('write failed', { error });
  }

  private trace(direction: '«' | '»', data: string): void {
    if (this.log.isEnabled('DEBUG')) this.log.debug(`${direction} ${escapeControls(redactSecrets(data))}`);
  }

  private handleClosed(error: Error | undefined): void {
    if (!this.opened) return;
    this.opened = false;
    this.unsubscribe();
    this.hold.abandon(
      new GatewayError(ErrorCode.AtSessionClosed, `${this.transport.description} closed`, { cause: error }),
    );
    this.pendingUrc = undefined;
    this.framer.reset();
    this.failEverything(
      new GatewayError(ErrorCode.AtSessionClosed, `${this.transport.description} closed`, { cause: error }),
    );
    if (error) this.log.warn('transport closed', { error });
    for (const listener of this.closeListeners) listener(error);
  }

  private failEverything(error: GatewayError): void {
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
    this.framer.expectPrompt = false;
  }

  private unsubscribe(): void {
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.unsubscribers = [];
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
