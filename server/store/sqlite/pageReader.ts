import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { ConnectionWorker, defaultThreadIdleMs } from './connectionWorker.js';
import type { GroupCommit } from './groupCommit.js';
import type { JsonPage, PageRead } from './pagedRecords.js';

/**
 * Worker threads reading pages. With one, that thread is the bottleneck of concurrent searches,
 * since the event loop does not render the pages and a number search's keys are most of a
 * search's work; a second serves concurrent searches at a higher rate and a shorter tail.
 */
const readerThreads = 2;

/** A page reader's thread, with the reads it was asked and has not answered yet. */
interface ReaderThread {
  worker: ConnectionWorker<PageRead, JsonPage>;
  inHand: number;
}

/**
 * Reads pages of `messages` and `inbox` (`GET /messages`, `GET /inbox`, the UI's lists) on
 * worker threads, each over a read-only connection of its own (pageReaderWorker.ts): on the
 * gateway's connection, a search over a long history (a millisecond at 1,000,000 stored, far
 * more for a needle that matches most rows) stalled HTTP, serial traffic and the group commit
 * while it ran.
 *
 * A read waits for the open batch's COMMIT (`GroupCommit.committed`), so it sees every write
 * made before it, as a read on the gateway's connection did (WAL: a worker's connection sees
 * each committed transaction, whether or not its fsync is done). It then goes to the thread
 * with the fewest reads in hand (the first on a tie, so a lone client keeps to one thread), and
 * a slow search holds up only the reads behind it on its thread. Each thread starts at its
 * first read, leaves after `idleMs` without one, and is started again by the next read, also
 * after it died (its pending reads then fail with StoreIo).
 */
export class PageReader {
  private readonly threads: ReaderThread[];
  /** Reads asked for and not yet answered, including those still waiting for a COMMIT. */
  private readonly asked = new Set<Promise<void>>();
  private closed = false;

  constructor(
    path: string,
    private readonly commits: Pick<GroupCommit, 'committed'>,
    logger: Logger,
    idleMs = defaultThreadIdleMs,
  ) {
    this.threads = Array.from({ length: readerThreads }, () => ({
      inHand: 0,
      worker: new ConnectionWorker<PageRead, JsonPage>({
        module: 'pageReaderWorker',
        path,
        name: 'page reader',
        failurePrefix: 'cannot read the page',
        logger,
        idleMs,
      }),
    }));
  }

  read(read: PageRead): Promise<JsonPage> {
    if (this.closed) return Promise.reject(new GatewayError(ErrorCode.StoreClosed, 'storage is closed'));
    const page = this.commits.committed().then(() => this.ask(read));
    const settled = page.then(
      () => undefined,
      () => undefined,
    );
    this.asked.add(settled);
    void settled.then(() => this.asked.delete(settled));
    return page;
  }

  /** Answers the reads already asked for, then stops the workers (their connections close first). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.asked);
    await Promise.all(this.threads.map((thread) => thread.worker.close()));
  }

  private ask(read: PageRead): Promise<JsonPage> {
    const thread = this.threads.reduce((least, other) => (other.inHand < least.inHand ? other : least));
    thread.inHand++;
    const answer = thread.worker.ask(read);
    const answered = () => {
      thread.inHand--;
    };
    void answer.then(answered, answered);
    return answer;
  }
}
