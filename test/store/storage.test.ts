import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { PendingGroup } from '../../server/contract/domain/incoming.js';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { toMessageView } from '../../server/contract/domain/messageView.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { createLogger, type LogRecord, silentLogger } from '../../server/logging/logger.js';
import { lockFileName } from '../../server/store/dataDirLock.js';
import { nodeFileSystem, type StoreFileSystem } from '../../server/store/fileSystem.js';
import { incomingRow } from '../../server/store/inboxRepository.js';
import { databaseFileName } from '../../server/store/sqlite/database.js';
import { schemaSteps } from '../../server/store/sqlite/schema.js';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import { openStorage, type Storage } from '../../server/store/storage.js';
import { listedPage, listForm, message, schemaOneMessageRow, temporaryDirectory } from './storeTestKit.js';

let dir: { path: string; remove: () => Promise<void> };
let dataDir: string;
const opened: Storage[] = [];

beforeEach(async () => {
  dir = await temporaryDirectory();
  dataDir = join(dir.path, 'data');
});

afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
  await dir.remove();
});

async function open(): Promise<Storage> {
  const storage = await openStorage({ dataDir, clock: new ManualClock(), logger: silentLogger });
  opened.push(storage);
  return storage;
}

const everyIndexMergingBy16 = { messages_text: 16, messages_digits: 16, inbox_text: 16, inbox_digits: 16 };

const inboxTotal = async (storage: Storage) => (await storage.inbox.list({ limit: 1, offset: 0 })).total;

/** The `body` column of every stored message, in id order. */
function storedMessageBodies(): string[] {
  const db = openSqlite(join(dataDir, databaseFileName), { readOnly: true });
  try {
    return (db.prepare('SELECT body FROM messages ORDER BY id').all() as { body: string }[]).map(
      (row) => row.body,
    );
  } finally {
    db.close();
  }
}

/** The FTS5 `automerge` setting each search index has stored (absent: FTS5's default). */
function searchAutomerge(): Record<string, number | undefined> {
  const db = openSqlite(join(dataDir, databaseFileName), { readOnly: true });
  try {
    const indexes = ['messages_text', 'messages_digits', 'inbox_text', 'inbox_digits'];
    return Object.fromEntries(
      indexes.map((index) => [
        index,
        (db.prepare(`SELECT v FROM ${index}_config WHERE k = 'automerge'`).get() as { v: number } | undefined)
          ?.v,
      ]),
    );
  } finally {
    db.close();
  }
}

/** The `detail` option each number index was created with (schema version 9: column). */
function digitsIndexDetail(): Record<string, string | undefined> {
  const db = openSqlite(join(dataDir, databaseFileName), { readOnly: true });
  try {
    return Object.fromEntries(
      ['messages_digits', 'inbox_digits'].map((index) => {
        const { sql } = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(index) as {
          sql: string;
        };
        return [index, /detail = (\w+)/.exec(sql)?.[1]];
      }),
    );
  } finally {
    db.close();
  }
}

function pendingGroup(key: string): PendingGroup {
  return {
    key,
    deviceId: 'modem-1',
    simNumber: 1,
    sender: '+15550001',
    reference: 7,
    partsCount: 2,
    firstReceivedAt: 1,
    parts: [{ partNumber: 1, text: 'first half', data: 'Zmlyc3Q=', sentAt: 1, receivedAt: 1 }],
  };
}

/** The pid of a process that has exited: nobody holds a lock with it. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('openStorage', () => {
  it('creates the data directory 0700 and its files 0600', async () => {
    const storage = await open();
    await storage.messages.insert(message({ id: 'm1' }));
    await storage.openDocument('settings', { a: 1 });
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    for (const file of [databaseFileName, `${databaseFileName}-wal`, 'settings.json', lockFileName]) {
      expect({ file, mode: (await stat(join(dataDir, file))).mode & 0o777 }).toEqual({ file, mode: 0o600 });
    }
  });

  it('makes a data directory that already exists 0700 at every start and says so (review 8)', async () => {
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    const records: LogRecord[] = [];
    const logger = createLogger({ level: 'INFO', sinks: [(record) => records.push(record)] });
    const storage = await openStorage({ dataDir, clock: new ManualClock(), logger });
    opened.push(storage);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect(records.some((record) => record.priority === 'WARN' && /0755.*0700/.test(record.message))).toBe(
      true,
    );
  });

  it('refuses a second gateway on the same data directory with a clear error', async () => {
    await open();
    const second = openStorage({ dataDir, clock: new ManualClock(), logger: silentLogger });
    await expect(second).rejects.toSatisfy(
      (error) => isGatewayError(error, ErrorCode.DataDirLocked) && error.field === 'dataDir',
    );
  });

  it('writes its pid into the lock file and removes it on close', async () => {
    const storage = await open();
    expect(JSON.parse(await readFile(join(dataDir, lockFileName), 'utf8')).pid).toBe(process.pid);
    await storage.close();
    opened.pop();
    await expect(stat(join(dataDir, lockFileName))).rejects.toMatchObject({ code: 'ENOENT' });
    await open();
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const first = await open();
    await first.messages.insert(message({ id: 'kept' }));
    await first.close();
    opened.pop();
    await writeFile(join(dataDir, lockFileName), `${deadPid()}\n`);
    const storage = await open();
    expect(storage.messages.get('kept')?.id).toBe('kept');
  });

  it('keeps messages, inbox, logs, collections, pending parts and documents across a restart', async () => {
    const storage = await open();
    await storage.messages.insert(message({ id: 'm1' }));
    await storage.inbox.insert({
      id: 'in1',
      type: 'SMS',
      deviceId: 'modem-1',
      simNumber: 1,
      sender: '+15550001',
      content: 'hi',
      receivedAt: 1,
    });
    storage.logs.append({ priority: 'INFO', module: 'test', message: 'hello', createdAt: 5 });
    const outbox = storage.openCollection<{ id: string; url: string }>('webhook-outbox');
    await outbox.put({ id: 'w1', url: 'https://example.test/hook' });
    await storage.pendingParts.save([pendingGroup('g1'), pendingGroup('g2')]);
    await storage.pendingParts.save([pendingGroup('g2')]);
    const settings = await storage.openDocument('settings', { retries: 1 });
    await settings.update((data) => {
      data.retries = 4;
    });
    await storage.close();
    opened.pop();

    const reopened = await open();
    expect(reopened.messages.get('m1')?.id).toBe('m1');
    expect(reopened.inbox.get('in1')?.content).toBe('hi');
    expect(reopened.logs.list({}).map((entry) => entry.message)).toEqual(['hello']);
    expect(reopened.openCollection<{ id: string; url: string }>('webhook-outbox').get('w1')?.url).toBe(
      'https://example.test/hook',
    );
    expect(await reopened.pendingParts.load()).toEqual([pendingGroup('g2')]);
    expect((await reopened.openDocument('settings', { retries: 1 })).data.retries).toBe(4);
  });

  it('keeps the message and inbox totals across restarts, and counts a database from before kept totals', async () => {
    const incoming = (id: string, receivedAt: number) => ({
      id,
      type: 'SMS' as const,
      deviceId: 'modem-1',
      simNumber: 1,
      sender: '+15550001',
      content: id,
      receivedAt,
    });
    // A data directory as the build before kept totals (schema 1) left it, with its rows.
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const older = openSqlite(join(dataDir, databaseFileName));
    older.exec(schemaSteps[0] ?? '');
    older.pragma('user_version = 1');
    const insertMessage = older.prepare(
      `INSERT INTO messages (id, created_at, seq, state, state_at, device_id, search, body)
       VALUES (@id, @created_at, @seq, @state, @state_at, @device_id, @search, @body)`,
    );
    for (const id of ['m1', 'm2', 'm3'])
      insertMessage.run(schemaOneMessageRow(message({ id, state: 'Sent' })));
    older
      .prepare(
        `INSERT INTO inbox (id, received_at, type, device_id, search, body)
         VALUES (@id, @received_at, @type, @device_id, @search, @body)`,
      )
      .run(incomingRow(incoming('in1', 1)));
    older.close();

    const upgraded = await open();
    expect([upgraded.messages.count(), await inboxTotal(upgraded)]).toEqual([3, 1]);
    await upgraded.inbox.insert(incoming('in2', Date.now()));
    await upgraded.inbox.insert(incoming('in2', Date.now()));
    expect(await upgraded.inbox.pruneOlderThan(2)).toBe(1);
    await upgraded.close();
    opened.pop();

    const reopened = await open();
    expect([reopened.messages.count(), await inboxTotal(reopened)]).toEqual([3, 1]);
    expect((await listedPage(reopened.messages, { limit: 1, offset: 0 })).total).toBe(3);
    // Version 8 indexed the rows written before it, for text and for numbers.
    const found = (search: string) => listedPage(reopened.messages, { limit: 5, offset: 0, search });
    expect((await found('hello m2')).items.map((record) => record.id)).toEqual(['m2']);
    expect((await found('+1555000')).total).toBe(3);
    // Version 11 wrote the API views of the rows stored before it.
    const views = (await listedPage(reopened.messages, { limit: 5, offset: 0 })).items;
    expect(views.sort((left, right) => left.id.localeCompare(right.id))).toEqual(
      ['m1', 'm2', 'm3'].map((id) =>
        toMessageView(reopened.messages.get(id) as MessageRecord, true, listForm.unassignedDeviceId),
      ),
    );
    expect((await reopened.inbox.list({ limit: 5, offset: 0, search: '5550001' })).total).toBe(1);
    // Version 23 keeps in each body what the columns do not hold, a flag only off its default;
    // the records read back whole.
    for (const id of ['m1', 'm2', 'm3']) {
      expect(reopened.messages.get(id)).toEqual(message({ id, state: 'Sent' }));
    }
    await reopened.close();
    opened.pop();
    expect(storedMessageBodies()).toEqual(
      ['m1', 'm2', 'm3'].map((id) =>
        JSON.stringify({
          text: `hello ${id}`,
          recipients: [{ phoneNumber: '+15550000001', state: 'Sent' }],
          states: { Sent: Date.UTC(2026, 0, 1) },
          withDeliveryReport: false,
        }),
      ),
    );
    // Version 7: the search indexes merge 16 segments at a time.
    expect(searchAutomerge()).toEqual(everyIndexMergingBy16);
    // Version 9: the number indexes were made again with column lists ("in2", found above by
    // number, was written to the new one by version 8's trigger).
    expect(digitsIndexDetail()).toEqual({ messages_digits: 'column', inbox_digits: 'column' });
  });

  it('creates search indexes that merge 16 segments at a time (FTS5 default: 4)', async () => {
    const storage = await open();
    await storage.close();
    opened.pop();
    expect(searchAutomerge()).toEqual(everyIndexMergingBy16);
  });

  it('refuses collection names that are not plain file names', async () => {
    const storage = await open();
    expect(() => storage.openCollection('../escape')).toThrow(
      expect.toSatisfy((error) => isGatewayError(error, ErrorCode.ValidationFailed)),
    );
    await expect(storage.openDocument('Settings.json', {})).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.ValidationFailed),
    );
  });

  it('refuses to open the same collection twice, or the one the pending parts live in', async () => {
    const storage = await open();
    storage.openCollection('outbox');
    const conflict = expect.toSatisfy((error) => isGatewayError(error, ErrorCode.Conflict));
    expect(() => storage.openCollection('outbox')).toThrow(conflict);
    expect(() => storage.openCollection('pending-parts')).toThrow(conflict);
  });

  it('writes a backup while open that opens as a store of its own with the same records', async () => {
    const storage = await open();
    await storage.messages.insert(message({ id: 'before-backup' }));
    const target = join(dir.path, 'copy.db');
    const backup = storage.backup(target);
    // Written while the backup runs: it is in the live store, and maybe in the copy.
    await storage.messages.insert(message({ id: 'during-backup' }));
    await backup;
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    const copyDir = join(dir.path, 'restored');
    await mkdir(copyDir);
    await copyFile(target, join(copyDir, databaseFileName));
    const restored = await openStorage({ dataDir: copyDir, clock: new ManualClock(), logger: silentLogger });
    opened.push(restored);
    expect(restored.messages.get('before-backup')?.id).toBe('before-backup');
  });

  it('refuses a backup into a folder that does not exist with StoreIo, leaving nothing behind', async () => {
    const storage = await open();
    await expect(storage.backup(join(dir.path, 'missing', 'copy.db'))).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.StoreIo),
    );
  });

  it('reports the directory writable, and not writable once the disk refuses files', async () => {
    let diskFull = false;
    const fs: StoreFileSystem = {
      ...nodeFileSystem,
      open: ((...args: Parameters<typeof nodeFileSystem.open>) =>
        diskFull
          ? Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }))
          : nodeFileSystem.open(...args)) as StoreFileSystem['open'],
    };
    const storage = await openStorage({ dataDir, clock: new ManualClock(), logger: silentLogger, fs });
    opened.push(storage);
    expect(await storage.checkWritable()).toBe(true);
    diskFull = true;
    expect(await storage.checkWritable()).toBe(false);
    diskFull = false;
  });

  it('reports not writable after close', async () => {
    const storage = await open();
    await storage.close();
    opened.pop();
    expect(await storage.checkWritable()).toBe(false);
  });
});
