import { EventEmitter } from 'node:events';
import type { Clock, TimerHandle } from '../server/clock/clock.js';
import { ErrorCode, GatewayError } from '../server/errors/gatewayError.js';
import type { Logger } from '../server/logging/logger.js';
import { type CoreHealth, isCoreHealth } from './coreHealth.js';
import { type CoreToMain, isCoreToMain, type MainToCore } from './coreMessages.js';
import { type ExitDecision, RestartPolicy } from './restartPolicy.js';
import { isStartFailure, needsAPerson, type StartFailure } from './startFailure.js';

export interface CoreReady {
  baseUrl: string;
  simulated: boolean;
  username: string;
  generatedPassword?: string;
}

/**
 * The part of Electron's `UtilityProcess` the supervisor uses (docs/api/utility-process.md:
 * `child.postMessage(message)`, `child.kill()`, events `message` and `exit` with the exit code).
 * Main passes `utilityProcess.fork`; tests pass a double.
 */
export interface CoreChild {
  /** With `stdio: 'pipe'`: what the core writes to stdout and stderr ("null" otherwise). */
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: MainToCore): void;
  kill(): boolean;
  on(event: 'message', listener: (message: unknown) => void): this;
  on(event: 'exit', listener: (code: number) => void): this;
  once(event: 'exit', listener: (code: number) => void): this;
}

export type ForkCore = (
  modulePath: string,
  args: string[],
  options: { serviceName: string; stdio: 'pipe' },
) => CoreChild;

export interface CoreSupervisorOptions {
  fork: ForkCore;
  entry: string;
  /** Read at every start, so a changed preference (port, simulator) applies on restart. */
  args: () => string[];
  clock: Clock;
  logger: Logger;
  /**
   * Everything the core writes (its log lines, and a stack trace when it dies while loading):
   * a packaged app has no console, so this is where it goes to a file.
   */
  output(chunk: Buffer | string): void;
  restartPolicy?: RestartPolicy;
  /** How long a token request may wait for the core. */
  tokenTimeoutMs?: number;
  /** How long `stop()` waits for a clean shutdown before killing the process. */
  stopTimeoutMs?: number;
}

/** What the core is doing, for the tray, notifications and the failure window. */
export type CoreState =
  /** `upgrade`: the core is migrating its database, which may take minutes with a long history. */
  | { kind: 'starting'; upgrade?: { from: number; to: number; backup: string } }
  | { kind: 'running' }
  /** It stopped or could not start; the next attempt is due at `retryAt` (epoch ms). */
  | { kind: 'waiting-to-retry'; attempt: number; retryAt: number; reason: string; wasReady: boolean }
  /** Not running and not retried: a person stopped the retries, or must fix an option first. */
  | { kind: 'stopped'; reason: 'retries-stopped' | 'needs-a-person' | 'quit'; detail?: string };

interface TokenRequest {
  resolve(token: string | undefined): void;
  reject(error: Error): void;
  timer: TimerHandle;
}

/**
 * Runs the gateway core in an Electron utility process, so a crash or a busy moment in the core
 * never freezes the window. A core that crashes or fails to start is started again after a
 * growing pause (`RestartPolicy`), until a person stops the retries (`stopRetrying`); every
 * change is reported as a `state`, and each start-up failure as `start-failed` with its cause.
 * Every token request settles: with the token, or with CoreUnavailable when the core refuses,
 * does not answer in time, or goes away.
 */
export class CoreSupervisor extends EventEmitter<{
  ready: [CoreReady];
  incoming: [{ sender: string; preview: string }];
  'sending-paused': [boolean];
  health: [CoreHealth];
  'start-failed': [StartFailure];
  state: [CoreState];
}> {
  private child?: CoreChild;
  private latest?: CoreReady;
  private stopping = false;
  private restartTimer?: TimerHandle;
  private reportedFailure?: StartFailure;
  private currentState: CoreState = { kind: 'stopped', reason: 'quit' };
  private nextRequestId = 1;
  private readonly tokenRequests = new Map<number, TokenRequest>();
  private readonly policy: RestartPolicy;

  constructor(private readonly options: CoreSupervisorOptions) {
    super();
    this.policy = options.restartPolicy ?? new RestartPolicy();
  }

  get connection(): CoreReady | undefined {
    return this.latest;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  get state(): CoreState {
    return this.currentState;
  }

  start(): void {
    if (this.child) return;
    this.stopping = false;
    this.restartTimer?.cancel();
    this.restartTimer = undefined;
    this.reportedFailure = undefined;
    this.policy.started();
    const child = this.options.fork(this.options.entry, this.options.args(), {
      serviceName: 'SMS Gateway core',
      stdio: 'pipe',
    });
    this.child = child;
    // A piped stream that nobody reads fills up and blocks the core (docs/api/utility-process.md).
    child.stdout?.on('data', this.options.output);
    child.stderr?.on('data', this.options.output);
    child.on('message', (message: unknown) => {
      if (this.child === child && isCoreToMain(message)) this.handle(message);
    });
    child.on('exit', (code) => this.exited(child, code));
    this.changeState({ kind: 'starting' });
  }

  /** A person gave up waiting: no further attempt until `retryNow` or `restart`. */
  stopRetrying(): void {
    if (this.currentState.kind !== 'waiting-to-retry') return;
    this.restartTimer?.cancel();
    this.restartTimer = undefined;
    this.changeState({ kind: 'stopped', reason: 'retries-stopped' });
  }

  /** Starts a core that is waiting or stopped at once, with a fresh count of failures. */
  retryNow(): void {
    if (this.child) return;
    this.policy.reset();
    this.start();
  }

  /** Stops the core and starts it again with fresh arguments; earlier crashes are forgiven. */
  async restart(): Promise<void> {
    await this.stop();
    this.policy.reset();
    this.start();
  }

  send(message: MainToCore): void {
    this.child?.postMessage(message);
  }

  /**
   * A fresh short-lived owner token for the window; undefined once people other than the owner
   * exist, who sign in to the window as themselves.
   */
  requestSessionToken(): Promise<string | undefined> {
    if (!this.child || !this.latest) return Promise.reject(unavailable('the gateway core is not running'));
    const requestId = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      const timer = this.options.clock.setTimer(() => {
        this.settle(requestId, unavailable('the gateway core did not answer in time'));
      }, this.options.tokenTimeoutMs ?? 10_000);
      this.tokenRequests.set(requestId, { resolve, reject, timer });
      this.send({ type: 'renew-session-token', requestId });
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.restartTimer?.cancel();
    this.restartTimer = undefined;
    const child = this.child;
    this.changeState({ kind: 'stopped', reason: 'quit' });
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.send({ type: 'shutdown' });
    const forced = this.options.clock.setTimer(() => child.kill(), this.options.stopTimeoutMs ?? 10_000);
    await exited;
    forced.cancel();
  }

  private exited(child: CoreChild, code: number): void {
    if (this.child !== child) return;
    this.child = undefined;
    this.latest = undefined;
    for (const requestId of [...this.tokenRequests.keys()]) {
      this.settle(requestId, unavailable(`the gateway core stopped (exit code ${code})`));
    }
    if (this.stopping) return;
    const failure = this.latestFailure(code);
    const decision: ExitDecision = this.policy.exited(this.options.clock.now(), {
      retryable: failure === undefined || !needsAPerson(failure),
    });
    if (failure) this.emit('start-failed', failure);
    if (!decision.restart) {
      this.changeState({ kind: 'stopped', reason: 'needs-a-person', detail: failure?.message });
      return;
    }
    const reason = failure?.message ?? `The gateway core stopped unexpectedly (exit code ${code}).`;
    this.options.logger.warn('the gateway core stopped; starting it again after a pause', {
      code,
      attempt: decision.attempt,
      delayMs: decision.delayMs,
      reason,
    });
    this.changeState({
      kind: 'waiting-to-retry',
      attempt: decision.attempt,
      retryAt: this.options.clock.now() + decision.delayMs,
      reason,
      wasReady: decision.wasReady,
    });
    this.restartTimer = this.options.clock.setTimer(() => this.start(), decision.delayMs);
  }

  /** Why a core that never got ready ended; undefined for a crash after `ready`. */
  private latestFailure(code: number): StartFailure | undefined {
    if (this.currentState.kind === 'running') return undefined;
    return (
      this.reportedFailure ?? {
        kind: 'other',
        message: `The gateway core stopped before it was ready (exit code ${code}).`,
      }
    );
  }

  private changeState(state: CoreState): void {
    this.currentState = state;
    this.emit('state', state);
  }

  /** A token, none (people sign in as themselves), or why there is none. */
  private settle(requestId: number, outcome: string | undefined | Error): void {
    const request = this.tokenRequests.get(requestId);
    if (!request) return;
    this.tokenRequests.delete(requestId);
    request.timer.cancel();
    if (outcome instanceof Error) request.reject(outcome);
    else request.resolve(outcome);
  }

  private handle(message: CoreToMain): void {
    switch (message.type) {
      case 'ready':
        this.policy.ready(this.options.clock.now());
        this.latest = {
          baseUrl: message.baseUrl,
          simulated: message.simulated,
          username: message.username,
          ...(message.generatedPassword === undefined
            ? {}
            : { generatedPassword: message.generatedPassword }),
        };
        this.emit('ready', this.latest);
        this.changeState({ kind: 'running' });
        break;
      case 'session-token':
        this.settle(message.requestId, message.sessionToken);
        break;
      case 'session-token-failed':
        this.settle(message.requestId, unavailable(message.message));
        break;
      case 'incoming':
        this.emit('incoming', { sender: message.sender, preview: message.preview });
        break;
      case 'sending-paused':
        this.emit('sending-paused', message.paused);
        break;
      case 'health':
        if (isCoreHealth(message.health)) this.emit('health', message.health);
        break;
      case 'schema-upgrade':
        this.changeState({
          kind: 'starting',
          upgrade: { from: message.from, to: message.to, backup: message.backup },
        });
        break;
      case 'start-failed':
        if (isStartFailure(message.failure)) this.reportedFailure = message.failure;
        // It has nothing left to do; its exit reports the failure (see exited()).
        this.child?.kill();
        break;
    }
  }
}

function unavailable(message: string): GatewayError {
  return new GatewayError(ErrorCode.CoreUnavailable, message);
}
