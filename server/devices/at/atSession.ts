/**
 * One AT session over one transport: opens and closes it, frames its bytes into lines, and sends
 * each line first through the URC assembly (`urcAssembly.ts`), which classifies unsolicited codes
 * (`unsolicited.ts`) and puts together those that span lines; only the rest reach the command
 * runner (`commandRunner.ts`), which runs one command at a time, drives the `> ` prompt of
 * AT+CMGS and holds the line after a timeout until it is in step again.
 *
 * Taking over a line: a modem outlives the process that talks to it. If that process died after
 * `AT+CMGS=<n>` drew the `> ` prompt, the modem still collects PDU characters and would swallow
 * every command. `cancelPendingInput` writes ESC, which cancels the edited message (TS 27.005
 * §3.5.1, answered OK) and is ignored in command mode (V.250 §5.2.1), then resynchronises by
 * sequence (`lineHold.ts`): nothing the dead process is owed may answer the next command.
 */
import type { Clock } from '../../clock/clock.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { Transport } from '../transport/transport.js';
import {
  type AtCommandOptions,
  type AtResponse,
  type CommandRequest,
  CommandRunner,
  type PduWaits,
} from './commandRunner.js';
import { escapeControls, redactSecrets } from './commandText.js';
import { type FramerEvent, LineFramer } from './lineFramer.js';
import { PduMask } from './pduMask.js';
import {
  initialUrcAssembly,
  type UnsolicitedCode,
  type UrcAssemblyEvent,
  type UrcAssemblyState,
  urcAssemblyTransition,
} from './urcAssembly.js';

export type { AtCommandOptions, AtResponse, PduWaits } from './commandRunner.js';
export { redactSecrets } from './commandText.js';
export type { UnsolicitedCode } from './urcAssembly.js';

export interface AtSessionOptions {
  clock: Clock;
  logger: Logger;
  /**
   * A command that names no timeout (default `defaultCommandTimeoutMs`). The modem driver names
   * one on every command (`ModemTimingOptions.commandTimeoutMs`); port probing sets its own here.
   */
  defaultTimeoutMs?: number;
  /** The fields below: see `defaultAtSessionTiming`, which fills in any left out. */
  resyncTimeoutMs?: number;
  resyncAttempts?: number;
  resyncQuietMs?: number;
  completeOnLineGraceMs?: number;
  /**
   * SMS PDUs appear in the DEBUG trace as they are (`--show-pdus`, for debugging); otherwise
   * each is replaced by its size (`pduMask.ts`). Default false.
   */
  showPdus?: boolean;
}

/**
 * The waits of a session (ms) and its take-over probes: the one place their defaults are set.
 * `GatewayOptions.atSession` (server/config/options.ts) carries them to every session the pool opens.
 */
export type AtSessionTiming = Required<
  Omit<AtSessionOptions, 'clock' | 'logger' | 'showPdus' | 'defaultTimeoutMs'>
>;

export const defaultAtSessionTiming: AtSessionTiming = {
  /** Each step of resynchronising by sequence after a timeout or on a take-over (`resyncMachine.ts`). */
  resyncTimeoutMs: 2_000,
  /** Probes a take-over tries before it settles for a quiet wait (a count, not ms; `lineHold.ts`). */
  resyncAttempts: 3,
  /** The quiet wait used instead of a probe on a line that never answered one (port probing). */
  resyncQuietMs: 1_000,
  /** Quiet after a `completeOnLine` match, for a trailing OK. */
  completeOnLineGraceMs: 300,
};

/** The wait of a command that names none, for sessions that set no `defaultTimeoutMs`. */
export const defaultCommandTimeoutMs = 10_000;

export class AtSession {
  private readonly log: Logger;
  private readonly framer = new LineFramer();
  private readonly runner: CommandRunner;
  private urcs: UrcAssemblyState = initialUrcAssembly;
  private readonly urcListeners = new Set<(code: UnsolicitedCode) => void>();
  private readonly closeListeners = new Set<(error?: Error) => void>();
  private unsubscribers: Array<() => void> = [];
  private opened = false;
  /** Absent when PDUs are shown. */
  private readonly pdus?: PduMask;

  constructor(
    private readonly transport: Transport,
    options: AtSessionOptions,
  ) {
    this.log = options.logger.child(`at:${transport.description}`);
    if (!options.showPdus) this.pdus = new PduMask();
    const defaults = defaultAtSessionTiming;
    this.runner = new CommandRunner({
      clock: options.clock,
      log: this.log,
      write: (text) => this.write(text),
      framer: this.framer,
      opened: () => this.opened,
      started: (command) => this.assemble({ type: 'commandStarted', command }),
      defaultTimeoutMs: options.defaultTimeoutMs ?? defaultCommandTimeoutMs,
      completeOnLineGraceMs: options.completeOnLineGraceMs ?? defaults.completeOnLineGraceMs,
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
    this.runner.failEverything(new GatewayError(ErrorCode.AtSessionClosed, 'AT session closed'));
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
  sendPdu(command: string, pduHex: string, waits: PduWaits): Promise<AtResponse> {
    return this.enqueue({ command, pdu: { hex: pduHex, waits }, options: {} });
  }

  /**
   * Writes ESC, then resynchronises by sequence: the first step on a line another process may
   * have left in the middle of `AT+CMGS` (see the file comment). Resolves with the number of
   * lines discarded; `quietMs` is the wait used instead when the modem never answers the probe.
   */
  cancelPendingInput(quietMs: number): Promise<number> {
    if (!this.isOpen) {
      return Promise.reject(new GatewayError(ErrorCode.AtSessionClosed, 'AT session is not open'));
    }
    return this.runner.takeOver(quietMs);
  }

  onUnsolicited(listener: (code: UnsolicitedCode) => void): () => void {
    this.urcListeners.add(listener);
    return () => this.urcListeners.delete(listener);
  }

  onClose(listener: (error?: Error) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  private enqueue(request: CommandRequest): Promise<AtResponse> {
    // The one place command text becomes a string anyone may see (errors, status, logs).
    const label = redactSecrets(request.command);
    if (!this.isOpen) {
      return Promise.reject(
        new GatewayError(ErrorCode.AtSessionClosed, `cannot run ${label}: AT session is not open`),
      );
    }
    return this.runner.enqueue(request, label);
  }

  private handleChunk(chunk: Buffer): void {
    const events = this.framer.push(chunk.toString('latin1'));
    for (const event of events) this.handleEvent(event);
  }

  private handleEvent(event: FramerEvent): void {
    if (event.kind === 'prompt') {
      this.trace('«', '> ');
      this.runner.handlePrompt();
      return;
    }
    this.trace('«', event.line);
    const passOn = this.assemble({
      type: 'line',
      line: event.line,
      commandInFlight: this.runner.commandInFlight,
    });
    if (passOn) this.runner.handleLine(event.line);
  }

  /** Feeds the URC assembly and emits what it completed; true when the line is not a URC's. */
  private assemble(event: UrcAssemblyEvent): boolean {
    const step = urcAssemblyTransition(this.urcs, event);
    this.urcs = step.state;
    for (const code of step.emitted) this.emitUrc(code);
    return step.passOn;
  }

  private emitUrc(code: UnsolicitedCode): void {
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

  private trace(direction: '«' | '»', data: string): void {
    // The mask sees every line, logged or not: a level raised mid-listing still hides its PDUs.
    const shown = this.pdus ? (direction === '«' ? this.pdus.received(data) : this.pdus.sent(data)) : data;
    if (this.log.isEnabled('DEBUG')) this.log.debug(`${direction} ${escapeControls(redactSecrets(shown))}`);
  }

  private handleClosed(error: Error | undefined): void {
    if (!this.opened) return;
    this.opened = false;
    this.unsubscribe();
    const closed = () =>
      new GatewayError(ErrorCode.AtSessionClosed, `${this.transport.description} closed`, { cause: error });
    this.assemble({ type: 'closed' });
    this.framer.reset();
    this.runner.failEverything(closed(), closed());
    if (error) this.log.warn('transport closed', { error });
    for (const listener of this.closeListeners) listener(error);
  }

  private unsubscribe(): void {
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    this.unsubscribers = [];
  }
}
