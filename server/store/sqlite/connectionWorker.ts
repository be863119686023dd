import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describeError, ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { startThread } from '../../threads/startThread.js';

/** What a connection worker's thread (connectionThread.ts) is sent, and what it answers. */
export type ConnectionRequest<Request> = { kind: 'ask'; id: number; request: Request } | { kind: 'close' };
export type ConnectionReply<Answer> =
  | { id: number; answer: Answer }
  | { id: number; failure: { message: string; code: string | undefined } };

/**
 * How long a thread stays after its last answer: an idle gateway gives its memory (a V8
 * isolate, a page cache) back, and a busy one pays the start (tens of ms) once.
 */
export const defaultThreadIdleMs = 30_000;

/** What the thread is started with. */
export interface ConnectionThreadData {
  path: string;
}

export interface ConnectionWorkerOptions {
  /** The thread's module, next to this one, without its extension (e.g. 'pageReaderWorker'). */
  module: string;
  /** The database file the thread opens a connection to. */
  path: string;
  /** Said in errors and logs: "the page reader stopped". */
  name: string;
  /** Starts a failed request's message: "cannot read the page: no such column …". */
  failurePrefix: string;
  logger: Logger;
  /** How long the thread stays after its last answer (`defaultThreadIdleMs` unless a test says). */
  idleMs: number;
}

/**
 * A worker thread with a connection of its own to the gateway's database, asked one thing at a
 * time and answering in order. SQLite's binding is synchronous: what it runs on the gateway's
 * connection stops HTTP and serial traffic until it ends, and takes the one core the event loop
 * has; on a thread it runs beside them.
 *
 * The thread starts at the first request and leaves after `idleMs` without one (an idle gateway
 * gives its isolate and page cache back; a busy one pays the start, tens of ms, once). A thread
 * that dies fails the requests it was asked with StoreIo and is started again by the next one;
 * a request that fails there fails alone, also with StoreIo.
 */
export class ConnectionWorker<Request, Answer> {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (answer: Answer) => void; reject: (error: unknown) => void }
  >();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ConnectionWorkerOptions) {}

  ask(request: Request): Promise<Answer> {
    const worker = this.running();
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ kind: 'ask', id, request } satisfies ConnectionRequest<Request>);
    });
  }

  /** Stops the thread once it has answered what it was asked (its connection closes first). */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = once(worker, 'exit');
    worker.postMessage({ kind: 'close' } satisfies ConnectionRequest<Request>);
    await exited;
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const workerData: ConnectionThreadData = { path: this.options.path };
    const worker = startThread(import.meta.url, this.options.module, { workerData });
    this.worker = worker;
    let failure: unknown;
    worker.on('message', (reply: ConnectionReply<Answer>) => this.answer(reply));
    worker.on('error', (error) => {
      failure = error;
      this.options.logger.error(`${this.options.name} failed`, { error: describeError(error) });
    });
    worker.on('exit', () => {
      // A thread told to close answered what it was asked first; the requests pending now (if
      // any) belong to its successor.
      if (this.worker !== worker) return;
      this.worker = undefined;
      const stopped = new GatewayError(ErrorCode.StoreIo, `the ${this.options.name} stopped`, {
        cause: failure,
      });
      for (const { reject } of this.pending.values()) reject(stopped);
      this.pending.clear();
    });
    return worker;
  }

  private answer(reply: ConnectionReply<Answer>): void {
    const waiter = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if ('answer' in reply) waiter?.resolve(reply.answer);
    else {
      const { message, code } = reply.failure;
      waiter?.reject(
        new GatewayError(ErrorCode.StoreIo, `${this.options.failurePrefix}: ${message}`, { cause: { code } }),
      );
    }
    if (this.pending.size === 0) {
      this.idleTimer = setTimeout(() => this.stopIdle(), this.options.idleMs);
      this.idleTimer.unref();
    }
  }

  private stopIdle(): void {
    const worker = this.worker;
    if (!worker || this.pending.size > 0) return;
    this.worker = undefined;
    worker.postMessage({ kind: 'close' } satisfies ConnectionRequest<Request>);
  }
}
