import type { CheckpointOutcome } from './checkpointer.js';
import { serveConnection } from './connectionThread.js';

/** The checkpointer's thread (checkpointer.ts): a connection that only checkpoints. */
serveConnection<null, CheckpointOutcome>({ readOnly: false }, (db) => {
  // FULL: the checkpoint fsyncs the database file before it marks the WAL's frames as copied,
  // and only frames marked so may the gateway's connection (synchronous=OFF) write over.
  db.pragma('synchronous = FULL');
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  return () => checkpoint.get() as CheckpointOutcome;
});
