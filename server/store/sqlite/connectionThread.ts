import { parentPort, workerData } from 'node:worker_threads';
import type { ConnectionReply, ConnectionRequest, ConnectionThreadData } from './connectionWorker.js';
import { type Database, openSqlite, sqliteCodeOf } from './sqlite.js';

/**
 * The thread side of a `ConnectionWorker` (connectionWorker.ts): opens its connection to the
 * gateway's database, then runs what it is asked with `handlerFor(db)`, one request at a time,
 * and answers each (a failure as its message and SQLite code). Called once by the thread's
 * module (pageReaderWorker.ts, checkpointWorker.ts).
 */
export function serveConnection<Request, Answer>(
  options: { readOnly: boolean },
  handlerFor: (db: Database) => (request: Request) => Answer,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveConnection runs on a worker thread');
  const { path } = workerData as ConnectionThreadData;
  const db = openSqlite(path, { readOnly: options.readOnly, mustExist: true });
  const handle = handlerFor(db);
  port.on('message', (message: ConnectionRequest<Request>) => {
    if (message.kind === 'close') {
      db.close();
      port.close();
      return;
    }
    let reply: ConnectionReply<Answer>;
    try {
      reply = { id: message.id, answer: handle(message.request) };
    } catch (error) {
      reply = {
        id: message.id,
        failure: { message: String((error as Error).message), code: sqliteCodeOf(error) },
      };
    }
    port.postMessage(reply);
  });
}
