import { serveConnection } from './connectionThread.js';
import { type JsonPage, type PageRead, pagedRecords } from './pagedRecords.js';
import { StatementCache } from './statementCache.js';

/** The page reader's thread (pageReader.ts): a read-only connection running page reads. */
serveConnection<PageRead, JsonPage>({ readOnly: true }, (db) => {
  // The gateway's checkpoint may hold a lock for a moment; wait instead of failing the read.
  db.pragma('busy_timeout = 5000');
  const queries = new StatementCache(db);
  return (read) => pagedRecords(queries, read);
});
