import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { ConnectionWorker, defaultThreadIdleMs } from './connectionWorker.js';

/** What `PRAGMA wal_checkpoint` answers: WAL frames in the log, and how many are in the database. */
export interface CheckpointOutcome {
  busy: number;
  log: number;
  checkpointed: number;
}

/** Checkpoints on a thread of their own; `GroupCommit` asks for them. */
export interface Checkpointer {
  /** One PASSIVE checkpoint, the database file fsynced before it counts. */
  checkpoint(): Promise<CheckpointOutcome>;
  /** Stops the thread once it has answered. */
  close(): Promise<void>;
}

/**
 * The gateway's checkpoints (copying WAL frames into the database file and fsyncing it), run on
 * a worker thread with a connection of its own (checkpointWorker.ts). On the gateway's connection
 * a checkpoint stops the event loop, often under a steady stream of POSTs, and one that could not
 * run during a long busy spell stops it for far longer once it can.
 */
export function openCheckpointer(path: string, logger: Logger, idleMs = defaultThreadIdleMs): Checkpointer {
  const thread = new ConnectionWorker<null, CheckpointOutcome>({
    module: 'checkpointWorker',
    path,
    name: 'checkpointer',
    failurePrefix: 'cannot checkpoint',
    logger,
    idleMs,
  });
  return {
    checkpoint: () =>
      thread.ask(null).catch((error: unknown) => {
        logger.warn('checkpoints go back to the event loop', { error: describeError(error) });
        throw error;
      }),
    close: () => thread.close(),
  };
}
