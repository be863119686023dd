import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import type { BenchSizes } from '../support/benchSizes.js';
import { prefillStore } from '../support/prefill.js';
import { fixed, type Table } from '../support/table.js';

/**
 * History on disk: bytes per stored message in `gateway.db`, by what holds them, measured with
 * SQLite's `dbstat` table (every page of every table and index) after the prefill of the other
 * workloads: one-recipient single-part messages, delivered, with the desk's thread index caught up.
 */
const TARGET_BYTES_PER_MESSAGE = 1024;

/** Which part of the schema each b-tree belongs to, by name. */
const groups: [label: string, matches: (name: string) => boolean][] = [
  ['message rows (record, search text)', (name) => name === 'messages'],
  ['search indexes (FTS5 trigrams and digits)', (name) => /^messages_(text|digits)/.test(name)],
  [
    'message indexes (id, time, state, device)',
    (name) => name.startsWith('messages_by_') || name === 'sqlite_autoindex_messages_1',
  ],
  ['desk thread items', (name) => name.startsWith('desk_thread_items')],
  ['desk conversations (one per number)', (name) => name.includes('desk_conversations')],
];

export async function runHistorySize(sizes: BenchSizes): Promise<Table> {
  const messages = sizes.quick ? 500 : 20_000;
  const dataDir = await mkdtemp(join(tmpdir(), 'sms-bench-history-'));
  try {
    await prefillStore({ dataDir, messages, incoming: 0 });
    const db = openSqlite(join(dataDir, 'gateway.db'));
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
      const pages = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
        name: string;
        bytes: number;
      }[];
      const total = pages.reduce((sum, page) => sum + page.bytes, 0);
      const rows = groups.map(([label, matches]) => {
        const bytes = pages.filter((page) => matches(page.name)).reduce((sum, page) => sum + page.bytes, 0);
        return [label, fixed(bytes / messages, 0)];
      });
      const grouped = groups.reduce(
        (sum, [, matches]) =>
          sum + pages.filter((page) => matches(page.name)).reduce((part, page) => part + page.bytes, 0),
        0,
      );
      rows.push(['everything else', fixed((total - grouped) / messages, 0)]);
      rows.push(['total', fixed(total / messages, 0)]);
      return {
        title: 'History on disk (gateway.db, bytes per message)',
        headers: ['what', 'bytes/message'],
        rows,
        notes: [
          `${messages.toLocaleString('en-US')} one-recipient single-part delivered messages, each to its own ` +
            'number, written through the store; pages counted with dbstat after a WAL checkpoint.',
          `Target: ${TARGET_BYTES_PER_MESSAGE} bytes per message with every index and view the reads need.`,
        ],
      };
    } finally {
      db.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
