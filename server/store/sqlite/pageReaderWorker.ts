import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { pagedRecords } from './pagedRecords.js';
import type { PageReaderReply, PageReaderRequest, PageReaderWorkerData } from './pageReader.js';
import { StatementCache } from './statementCache.js';

/**
 * The page reader's thread (pageReader.ts): one read-only connection to the gateway's database,
 * running the page reads it is sent, in order.
 */
const port = parentPort;
if (!port) throw new Error('pageReaderWorker runs as a worker thread');
const { path } = workerData as PageReaderWorkerData;
const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
// The gateway's checkpoint may hold a lock for a moment; wait instead of failing the read.
db.pragma('busy_timeout = 5000');
const queries = new StatementCache(db);

port.on('message', (request: PageReaderRequest) => {
  if (request.kind === 'close') {
    db.close();
    port.close();
    return;
  }
  let reply: PageReaderReply;
  try {
    reply = { id: request.id, page: pagedRecords(queries, request.read) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    reply = {
      id: request.id,
      failure: {
        message: String((error as Error).message),
        code: typeof code === 'string' ? code : undefined,
      },
    };
  }
  port.postMessage(reply);
});
