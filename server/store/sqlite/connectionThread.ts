import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { ConnectionReply, ConnectionRequest, ConnectionThreadData } from './connectionWorker.js';

/**
 * The thread side of a `ConnectionWorker` (connectionWorker.ts): opens its connection to the
 * gateway's database, then runs what it is asked with `handlerFor(db)`, one request at a time,
 * and answers each (a failure as its message and SQLite code). Called once by the thread's
 * module (pageReaderWorker.ts, checkpointWorker.ts).
 */
export function serveConnection<Request, Answer>(
  options: { readonly: boolean },
  handlerFor: (db: Database) => (request: Request) => Answer,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveConnection runs on a worker thread');
  const { path } = workerData as ConnectionThreadData;
  const db = new BetterSqlite3(path, { readonly: options.readonly, fileMustExist: true });
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
      const code = (error as { code?: unknown }).code;
      reply = {
        id: message.id,
        failure: {
          message: String((error as Error).message),
          code: typeof code === 'string' ? code : undefined,
        },
      };
    }
    port.postMessage(reply);
  });
}
