import { once } from 'node:events';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describeError, ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { GroupCommit } from './groupCommit.js';
import type { PageOfRecords, PageRead } from './pagedRecords.js';

/** What the page reader's worker (pageReaderWorker.ts) is asked, and what it answers. */
export type PageReaderRequest = { kind: 'read'; id: number; read: PageRead } | { kind: 'close' };
export type PageReaderReply =
  | { id: number; page: PageOfRecords }
  | { id: number; failure: { message: string; code: string | undefined } };

/** What the worker is started with. */
export interface PageReaderWorkerData {
  path: string;
}

/**
 * How long the worker stays after its last read: an idle gateway gives its memory (a V8
 * isolate, a page cache) back, and a busy one pays the start (tens of ms) once.
 */
const defaultIdleMs = 30_000;

/**
 * Reads pages of `messages` and `inbox` (`GET /messages`, `GET /inbox`, the UI's lists) on a
 * worker thread, over a read-only connection of its own. better-sqlite3 is synchronous: on the
 * gateway's connection, a search over a long history (a millisecond at 1,000,000 stored, far
 * more for a needle that matches most rows) stalled HTTP, serial traffic and the group commit
 * while it ran; there, it also took the one core the event loop has. The worker runs beside it.
 *
 * A read waits for the open batch's COMMIT (`GroupCommit.committed`), so it sees every write
 * made before it, as a read on the gateway's connection did (WAL: the worker's connection sees
 * each committed transaction, whether or not its fsync is done). Reads are answered in order.
 * The worker starts at the first read, leaves after `idleMs` without one, and is started again
 * by the next read, also after it died (its pending reads then fail with StoreIo).
 */
export class PageReader {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (page: PageOfRecords) => void; reject: (error: unknown) => void }
  >();
  /** Reads asked for and not yet answered, including those still waiting for a COMMIT. */
  private readonly asked = new Set<Promise<void>>();
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly commits: Pick<GroupCommit, 'committed'>,
    private readonly logger: Logger,
    private readonly idleMs = defaultIdleMs,
  ) {}

  read(read: PageRead): Promise<PageOfRecords> {
    if (this.closed) return Promise.reject(new GatewayError(ErrorCode.StoreClosed, 'storage is closed'));
    const page = this.commits.committed().then(() => this.send(read));
    const settled = page.then(
      () => undefined,
      () => undefined,
    );
    this.asked.add(settled);
    void settled.then(() => this.asked.delete(settled));
    return page;
  }

  /** Answers the reads already asked for, then stops the worker (its connection closes first). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.asked);
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = once(worker, 'exit');
    worker.postMessage({ kind: 'close' } satisfies PageReaderRequest);
    await exited;
  }

  private send(read: PageRead): Promise<PageOfRecords> {
    const worker = this.running();
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ kind: 'read', id, read } satisfies PageReaderRequest);
    });
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker({ path: this.path });
    this.worker = worker;
    let failure: unknown;
    worker.on('message', (reply: PageReaderReply) => this.answer(reply));
    worker.on('error', (error) => {
      failure = error;
      this.logger.error('page reader failed', { error: describeError(error) });
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const stopped = new GatewayError(ErrorCode.StoreIo, 'the page reader stopped', { cause: failure });
      for (const { reject } of this.pending.values()) reject(stopped);
      this.pending.clear();
    });
    return worker;
  }

  private answer(reply: PageReaderReply): void {
    const waiter = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if ('page' in reply) waiter?.resolve(reply.page);
    else {
      const { message, code } = reply.failure;
      waiter?.reject(
        new GatewayError(ErrorCode.StoreIo, `cannot read the page: ${message}`, { cause: { code } }),
      );
    }
    if (this.pending.size === 0) {
      this.idleTimer = setTimeout(() => this.stopIdle(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  private stopIdle(): void {
    const worker = this.worker;
    if (!worker || this.pending.size > 0) return;
    this.worker = undefined;
    worker.postMessage({ kind: 'close' } satisfies PageReaderRequest);
  }
}

/**
 * The worker's module sits next to this one: `.js` when built, `.ts` when run from source
 * (tests, `tsx`), where the worker's thread must load tsx itself before importing it.
 */
function startWorker(workerData: PageReaderWorkerData): Worker {
  const extension = extname(fileURLToPath(import.meta.url));
  const script = new URL(`./pageReaderWorker${extension}`, import.meta.url);
  if (extension !== '.ts') return new Worker(script, { workerData });
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}
