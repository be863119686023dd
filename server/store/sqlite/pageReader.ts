import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { ConnectionWorker, defaultThreadIdleMs } from './connectionWorker.js';
import type { GroupCommit } from './groupCommit.js';
import type { JsonPage, PageRead } from './pagedRecords.js';

/**
 * Reads pages of `messages` and `inbox` (`GET /messages`, `GET /inbox`, the UI's lists) on a
 * worker thread, over a read-only connection of its own (pageReaderWorker.ts): on the gateway's
 * connection, a search over a long history (a millisecond at 1,000,000 stored, far more for a
 * needle that matches most rows) stalled HTTP, serial traffic and the group commit while it ran.
 *
 * A read waits for the open batch's COMMIT (`GroupCommit.committed`), so it sees every write
 * made before it, as a read on the gateway's connection did (WAL: the worker's connection sees
 * each committed transaction, whether or not its fsync is done). Reads are answered in order.
 * The worker starts at the first read, leaves after `idleMs` without one, and is started again
 * by the next read, also after it died (its pending reads then fail with StoreIo).
 */
export class PageReader {
  private readonly thread: ConnectionWorker<PageRead, JsonPage>;
  /** Reads asked for and not yet answered, including those still waiting for a COMMIT. */
  private readonly asked = new Set<Promise<void>>();
  private closed = false;

  constructor(
    path: string,
    private readonly commits: Pick<GroupCommit, 'committed'>,
    logger: Logger,
    idleMs = defaultThreadIdleMs,
  ) {
    this.thread = new ConnectionWorker({
      module: 'pageReaderWorker',
      path,
      name: 'page reader',
      failurePrefix: 'cannot read the page',
      logger,
      idleMs,
    });
  }

  read(read: PageRead): Promise<JsonPage> {
    if (this.closed) return Promise.reject(new GatewayError(ErrorCode.StoreClosed, 'storage is closed'));
    const page = this.commits.committed().then(() => this.thread.ask(read));
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
    await this.thread.close();
  }
}
