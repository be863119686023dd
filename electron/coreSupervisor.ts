import { EventEmitter } from 'node:events';
import { type UtilityProcess, utilityProcess } from 'electron';
import { type CoreToMain, isCoreToMain, type MainToCore } from './coreMessages.js';

export interface CoreReady {
  baseUrl: string;
  sessionToken: string;
  simulated: boolean;
}

/**
 * Runs the gateway core in an Electron utility process, so a crash or a busy moment in the core
 * never freezes the window, and restarts it (with back-off) when it dies unexpectedly.
 */
export class CoreSupervisor extends EventEmitter<{
  ready: [CoreReady];
  incoming: [{ sender: string; preview: string }];
  failed: [string];
}> {
  private child?: UtilityProcess;
  private latest?: CoreReady;
  private stopping = false;
  private restartDelayMs = 1_000;
  private pendingToken?: (token: string) => void;

  constructor(
    private readonly entry: string,
    private readonly args: string[],
  ) {
    super();
  }

  get connection(): CoreReady | undefined {
    return this.latest;
  }

  start(): void {
    this.stopping = false;
    const child = utilityProcess.fork(this.entry, this.args, {
      serviceName: 'SMS Gateway core',
      stdio: 'inherit',
    });
    this.child = child;
    child.on('message', (message: unknown) => {
      if (isCoreToMain(message)) this.handle(message);
    });
    child.on('exit', (code) => {
      this.child = undefined;
      this.latest = undefined;
      if (this.stopping) return;
      this.emit('failed', `the gateway core stopped (exit code ${code}); restarting`);
      setTimeout(() => this.start(), this.restartDelayMs);
      this.restartDelayMs = Math.min(this.restartDelayMs * 2, 60_000);
    });
  }

  send(message: MainToCore): void {
    this.child?.postMessage(message);
  }

  /** A fresh short-lived token for the window (the one from start-up may have expired). */
  renewSessionToken(): Promise<string> {
    return new Promise((resolve, reject) => {
      if (!this.child) {
        reject(new Error('the gateway core is not running'));
        return;
      }
      this.pendingToken = resolve;
      this.send({ type: 'renew-session-token' });
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.send({ type: 'shutdown' });
    const forced = setTimeout(() => child.kill(), 10_000);
    await exited;
    clearTimeout(forced);
  }

  private handle(message: CoreToMain): void {
    switch (message.type) {
      case 'ready':
        this.restartDelayMs = 1_000;
        this.latest = {
          baseUrl: message.baseUrl,
          sessionToken: message.sessionToken,
          simulated: message.simulated,
        };
        this.emit('ready', this.latest);
        break;
      case 'session-token':
        if (this.latest) this.latest = { ...this.latest, sessionToken: message.sessionToken };
        this.pendingToken?.(message.sessionToken);
        this.pendingToken = undefined;
        break;
      case 'incoming':
        this.emit('incoming', { sender: message.sender, preview: message.preview });
        break;
      case 'fatal':
        this.emit('failed', message.message);
        break;
    }
  }
}
