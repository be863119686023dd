import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { omitNulls } from '../../server/contract/domain/apiJson.js';
import type { MessageRecord, MessageState } from '../../server/contract/domain/message.js';
import { type MessageView, toMessageView } from '../../server/contract/domain/messageView.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { SqliteMessageRepository } from '../../server/store/messageRepository.js';
import type { MessageQuery } from '../../server/store/repositories.js';
import {
  type LegacyMessageColumns,
  recordOfLegacyColumns,
} from '../../server/store/sqlite/legacyMessageRows.js';
import { recordColumns } from '../../server/store/sqlite/messageRecordColumns.js';
import {
  failNextCommit,
  listedPage,
  listForm,
  message,
  openTestDatabase,
  rollBackSchema,
  type TestDatabase,
  temporaryDirectory,
} from './storeTestKit.js';

const start = Date.UTC(2026, 0, 1);
const minute = 60_000;

/** The ids in the waiting queue, in FIFO order, as far ahead in time as a queue can be read. */
function queuedIds(repository: SqliteMessageRepository): string[] {
  return repository
    .waiting('FIFO', Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER)
    .map((entry) => entry.record.id);
}

/** A database in `path` and the repository on it; `close` closes both. */
function openAt(path: string): { database: TestDatabase; repository: SqliteMessageRepository } {
  const database = openTestDatabase(path);
  return { database, repository: new SqliteMessageRepository(database.db, database.commits, database.pages) };
}

describe('SqliteMessageRepository', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  let repository: SqliteMessageRepository;

  async function reopen(): Promise<void> {
    await database.close();
    ({ database, repository } = openAt(dir.path));
  }

  beforeEach(async () => {
    dir = await temporaryDirectory();
    ({ database, repository } = openAt(dir.path));
  });

  afterEach(async () => {
    await database.close();
    await dir.remove();
  });

  it('rejects a second insert with the same id as Conflict on field "id"', async () => {
    await repository.insert(message({ id: 'm1' }));
    const duplicate = repository.insert(message({ id: 'm1' }));
    await expect(duplicate).rejects.toSatisfy(
      (error) => isGatewayError(error, ErrorCode.Conflict) && error.field === 'id',
    );
    expect(repository.count()).toBe(1);
  });

  it('shows an inserted message to reads before the insert resolves', async () => {
    const inserted = repository.insert(message({ id: 'm1' }));
    expect(repository.get('m1')?.id).toBe('m1');
    expect(queuedIds(repository)).toEqual(['m1']);
    await inserted;
  });

  it('rejects an update of an unknown message as NotFound', async () => {
    await expect(repository.update(message({ id: 'ghost' }))).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.NotFound),
    );
  });

  it('keeps the queue and inState() in step with every update', async () => {
    await repository.insert(message({ id: 'm1' }));
    await repository.insert(message({ id: 'm2' }));
    const current = repository.get('m1') as MessageRecord;
    await repository.update({ ...current, state: 'Processed', deviceId: 'modem-1' });
    expect(queuedIds(repository)).toEqual(['m2']);
    expect(repository.inState('Processed').map((record) => record.id)).toEqual(['m1']);
    await repository.update({ ...(repository.get('m1') as MessageRecord), state: 'Sent' });
    expect(repository.inState('Processed')).toEqual([]);
    expect(repository.inState('Sent').map((record) => record.id)).toEqual(['m1']);
  });

  it('reads the messages in flight and the order back from the database after reopening', async () => {
    await repository.insert(message({ id: 'old', createdAt: start }));
    await repository.insert(message({ id: 'new', createdAt: start + minute }));
    await repository.update({ ...(repository.get('old') as MessageRecord), state: 'Failed' });
    await reopen();
    expect(queuedIds(repository)).toEqual(['new']);
    expect(repository.inState('Failed').map((record) => record.id)).toEqual(['old']);
    expect((await listedPage(repository, { limit: 10, offset: 0 })).items.map((record) => record.id)).toEqual(
      ['new', 'old'],
    );
  });

  it('lists a message inserted out of time order at its place', async () => {
    await repository.insert(message({ id: 'b', createdAt: start + 2 * minute }));
    await repository.insert(message({ id: 'a', createdAt: start + minute }));
    await repository.insert(message({ id: 'c', createdAt: start + 3 * minute }));
    expect((await listedPage(repository, { limit: 10, offset: 0 })).items.map((record) => record.id)).toEqual(
      ['c', 'b', 'a'],
    );
  });

  it('lists oldest first when asked, paging from the oldest', async () => {
    for (const [id, minutes] of [
      ['b', 2],
      ['a', 1],
      ['c', 3],
    ] as const) {
      await repository.insert(message({ id, createdAt: start + minutes * minute }));
    }
    const page = async (offset: number) =>
      (await listedPage(repository, { oldestFirst: true, limit: 2, offset })).items.map(
        (record) => record.id,
      );
    expect([await page(0), await page(2)]).toEqual([['a', 'b'], ['c']]);
  });

  it('takes a message back out of memory when its commit fails, so a retry is not a duplicate', async () => {
    await repository.insert(message({ id: 'kept' }));
    failNextCommit(database);
    await expect(repository.insert(message({ id: 'm1' }))).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.StoreIo),
    );
    expect(repository.get('m1')).toBeUndefined();
    expect(queuedIds(repository)).toEqual(['kept']);
    await repository.insert(message({ id: 'm1' }));
    expect(repository.count()).toBe(2);
  });

  it('puts an update back as it was when its commit fails', async () => {
    await repository.insert(message({ id: 'm1' }));
    failNextCommit(database);
    const current = repository.get('m1') as MessageRecord;
    await expect(repository.update({ ...current, state: 'Processed' })).rejects.toSatisfy((error) =>
      isGatewayError(error, ErrorCode.StoreIo),
    );
    expect(repository.get('m1')?.state).toBe('Pending');
    expect(repository.inState('Processed')).toEqual([]);
    expect(queuedIds(repository)).toEqual(['m1']);
  });

  it('finds messages by the time they reached a state, from the database and from memory', async () => {
    await repository.insert(
      message({ id: 'failed-old', state: 'Failed', states: { Pending: start, Failed: start + minute } }),
    );
    await repository.insert(
      message({ id: 'failed-new', state: 'Failed', states: { Pending: start, Failed: start + 60 * minute } }),
    );
    await repository.insert(
      message({ id: 'processed-new', state: 'Processed', states: { Processed: start + 60 * minute } }),
    );
    expect(repository.inState('Failed', start + 30 * minute).map((record) => record.id)).toEqual([
      'failed-new',
    ]);
    expect(repository.inState('Processed', start + 30 * minute).map((record) => record.id)).toEqual([
      'processed-new',
    ]);
    expect(repository.inState('Processed', start + 90 * minute)).toEqual([]);
  });

  it('counts the messages that failed since a time to the millisecond, once each, after reopening too', async () => {
    const since = start + 90 * minute + 30_000;
    const failedAt = (id: string, at: number) =>
      message({ id, state: 'Failed', states: { Pending: start, Failed: at } });
    await repository.insert(failedAt('before', since - 1));
    await repository.insert(failedAt('at', since));
    await repository.insert(failedAt('same-minute', since + 29_999));
    await repository.insert(failedAt('later', since + 45 * minute));
    // One that fails by an update, and is written again once Failed.
    await repository.insert(message({ id: 'updated', states: { Pending: start } }));
    const failed = {
      ...(repository.get('updated') as MessageRecord),
      state: 'Failed' as const,
      states: { Pending: start, Failed: since + 50 * minute },
    };
    await repository.update(failed);
    await repository.update({ ...failed, priority: 1 });
    expect(repository.countFailedSince(since)).toBe(4);
    expect(repository.countFailedSince(since + 1)).toBe(3);
    await reopen();
    expect(repository.countFailedSince(since)).toBe(4);
  });

  it('counts the failures a database stored before it kept counts per minute (schema step 12)', async () => {
    for (const [index, at] of [start, start + 70 * minute, start + 100 * minute].entries()) {
      await repository.insert(message({ id: `failed-${index}`, state: 'Failed', states: { Failed: at } }));
    }
    // Back to schema 11: the later steps' tables and triggers go too, to be made again.
    rollBackSchema(database.db, 11);
    await reopen();
    expect(repository.countFailedSince(start + 40 * minute)).toBe(2);
  });

  it('lists the state times from the record once a stored view holds none (schema step 22)', async () => {
    const delivered = message({
      id: 'delivered',
      state: 'Delivered',
      states: { Pending: start, Processed: start + 1, Sent: start + 2, Delivered: start + 3 },
    });
    await repository.insert(delivered);
    // Back to schema 21, whose stored views held the state times (here: stale ones).
    rollBackSchema(database.db, 21);
    database.db.exec(`UPDATE messages SET view = json_set(view, '$.states', json('{"Pending":"then"}'))`);
    await reopen();
    const page = await repository.list({ limit: 10, offset: 0 }, listForm);
    expect(page.json).toBe(
      `[${JSON.stringify(toMessageView(delivered, true, listForm.unassignedDeviceId))}]`,
    );
  });

  it('lists and gives back the same messages once their stored views are gone (schema step 24)', async () => {
    const kinds: MessageRecord[] = [
      message({ id: 'queued', content: { kind: 'text', text: 'Say "hi" \\ 🎉\n1555' } }),
      message({
        id: 'asked-for',
        requestedDeviceId: 'modem-2',
        scheduleAt: start + 5 * minute,
        priority: 100,
      }),
      message({
        id: 'awaiting',
        deviceId: 'modem-1',
        state: 'Sent',
        withDeliveryReport: true,
        simNumber: 2,
        validUntil: start + 60 * minute,
        states: { Pending: start, Processed: start + 1, Sent: start + 2 },
        recipients: [
          { phoneNumber: '+15550000001', state: 'Sent', parts: [{ reference: 7 }], updatedAt: start + 2 },
          {
            phoneNumber: '+15550000002',
            state: 'Failed',
            error: 'CMS ERROR 500',
            failure: { code: 'modem-refused', modemCode: 500 },
          },
        ],
      }),
      message({ id: 'data', content: { kind: 'data', data: 'AQID', port: 9200 }, isEncrypted: true }),
      message({
        id: 'fleet',
        source: 'server',
        simulated: true,
        deviceId: 'sim-1',
        state: 'Sent',
        appId: 'shop',
      }),
    ];
    for (const record of kinds) await repository.insert(record);
    const pages = async () => {
      const listed: string[] = [];
      for (const withContent of [true, false]) {
        for (const search of [undefined, '1555', 'hi']) {
          const form = { withContent, unassignedDeviceId: listForm.unassignedDeviceId };
          listed.push((await repository.list({ limit: 10, offset: 0, search }, form)).json);
        }
      }
      return listed;
    };
    const before = await pages();
    const awaiting = repository.awaitingReports(start, start + minute);
    expect(awaiting).toEqual([{ deviceId: 'modem-1', count: 1, oldestSentAt: start + 2 }]);

    // Back to schema 23: each row's view and content beside a body without them.
    rollBackSchema(database.db, 23);
    const legacy = database.db
      .prepare(`SELECT ${recordColumns()}, view, view_content FROM messages ORDER BY rowid`)
      .all() as LegacyMessageColumns[];
    expect(legacy.map(recordOfLegacyColumns)).toEqual(kinds);
    expect(legacy.map((row) => JSON.parse(row.view))).toContainEqual(
      expect.objectContaining({ simNumber: 2 }),
    );
    await reopen();

    const columns = database.db.prepare('SELECT name FROM pragma_table_info(?)').all('messages');
    expect(columns).not.toContainEqual({ name: 'view' });
    expect(columns).not.toContainEqual({ name: 'view_content' });
    expect(kinds.map((record) => repository.get(record.id))).toEqual(kinds);
    expect(await pages()).toEqual(before);
    expect(repository.awaitingReports(start, start + minute)).toEqual(awaiting);
    // The report triggers read the flag from the rewritten body: a delivery ends the wait.
    const sent = repository.get('awaiting') as MessageRecord;
    await repository.update({
      ...sent,
      state: 'Delivered',
      states: { ...sent.states, Delivered: start + 3 },
    });
    expect(repository.awaitingReports(start, start + minute)).toEqual([]);
  });

  it('finds a phone number by search only where all of it matches, not just its end', async () => {
    const to = (id: string, phoneNumber: string) =>
      message({ id, recipients: [{ phoneNumber, state: 'Pending' }], content: { kind: 'text', text: id } });
    await repository.insert(to('uk', '+4477009123'));
    await repository.insert(to('same-end', '+4411109123'));
    await repository.insert(to('neighbour', '+4477009124'));
    const found = async (search: string) =>
      (await listedPage(repository, { limit: 10, offset: 0, search })).items
        .map((record) => record.id)
        .sort();
    expect(await found('+4477009123')).toEqual(['uk']);
    expect(await found('4477009')).toEqual(['neighbour', 'uk']);
    expect(await found('09123')).toEqual(['same-end', 'uk']);
    expect((await listedPage(repository, { limit: 10, offset: 0, search: '+4477009123' })).total).toBe(1);
  });

  it('finds digits and "+" numbers inside the text too, and numbers longer than an index token', async () => {
    const texted = (id: string, text: string, createdAt: number) =>
      message({
        id,
        createdAt,
        content: { kind: 'text', text },
        recipients: [{ phoneNumber: '+15550000001', state: 'Pending' }],
      });
    const long = '1234567890'.repeat(4);
    await repository.insert(texted('call-uk', 'Call us on +442071838750 today', start));
    await repository.insert(texted('order', 'Order 442071838750 shipped', start + 1));
    await repository.insert(texted('long', `Reference ${long}`, start + 2));
    await repository.insert(texted('long-other', `Reference ${long.slice(0, 32)}99`, start + 3));
    const found = async (search: string) =>
      (await listedPage(repository, { limit: 10, offset: 0, search })).items.map((record) => record.id);
    expect(await found('+4420718')).toEqual(['call-uk']);
    expect(await found('20718387')).toEqual(['order', 'call-uk']);
    // 40 digits: the index finds both by their first 32, and the rows tell them apart.
    expect(await found(long)).toEqual(['long']);
    expect(await found(long.slice(0, 32))).toEqual(['long-other', 'long']);
    expect(await found(long.slice(0, 33))).toEqual(['long']);
    expect((await listedPage(repository, { limit: 1, offset: 0, search: long })).total).toBe(1);
  });

  it('finds a needle of two characters that take four UTF-16 units, by scanning', async () => {
    await repository.insert(message({ id: 'party', content: { kind: 'text', text: 'Party 🎉🎉 tonight' } }));
    await repository.insert(message({ id: 'plain', content: { kind: 'text', text: 'Party tonight' } }));
    const page = await listedPage(repository, { limit: 10, offset: 0, search: '🎉🎉' });
    expect([page.total, page.items.map((record) => record.id)]).toEqual([1, ['party']]);
  });

  it('finds a scheduled message by its edited text, and no longer by the text it replaced', async () => {
    await repository.insert(message({ id: 'm1', content: { kind: 'text', text: 'Sale starts Monday' } }));
    const current = repository.get('m1') as MessageRecord;
    await repository.update({ ...current, content: { kind: 'text', text: 'Sale starts Tuesday 0800' } });
    const found = async (search: string) =>
      (await listedPage(repository, { limit: 10, offset: 0, search })).items.map((record) => record.id);
    expect(await found('tuesday')).toEqual(['m1']);
    expect(await found('0800')).toEqual(['m1']);
    expect(await found('monday')).toEqual([]);
    await reopen();
    expect(await found('tuesday')).toEqual(['m1']);
    expect(await found('monday')).toEqual([]);
  });

  it('lists every kind of message as toMessageView shows it, with and without content, searched or not', async () => {
    const kinds: MessageRecord[] = [
      message({ id: 'queued' }),
      message({ id: 'asked-for', requestedDeviceId: 'modem-2', scheduleAt: start + 5 * minute }),
      message({
        id: 'failed',
        deviceId: 'modem-1',
        state: 'Failed',
        states: { Pending: start, Processed: start + 1, Failed: start + 2 },
        recipients: [
          { phoneNumber: '+15550000001', state: 'Failed', error: 'CMS ERROR 500', parts: [{ reference: 7 }] },
          // A null field (as old journals may hold) is left out, as the API leaves them all out.
          { phoneNumber: '+15550000002', state: 'Failed', error: null as unknown as string },
        ],
      }),
      message({
        id: 'data',
        content: { kind: 'data', data: 'AQID', port: 9200 },
        simNumber: 2,
        priority: 100,
        validUntil: start + 60 * minute,
        withDeliveryReport: true,
      }),
      message({
        id: 'sealed',
        isEncrypted: true,
        content: { kind: 'text', text: '$aes-256-cbc/pbkdf2-sha1$x' },
      }),
      message({ id: 'fleet', source: 'server', simulated: true, deviceId: 'sim-1', state: 'Sent' }),
      message({ id: 'quoted', content: { kind: 'text', text: 'Say "hi" \\ 🎉 — ünïcode\n1555' } }),
    ];
    for (const record of kinds) await repository.insert(record);
    await repository.update({
      ...(repository.get('queued') as MessageRecord),
      deviceId: 'modem-3',
      state: 'Processed',
    });
    // GET by id's answer, as the HTTP layer writes it (defineRoute.ts), byte for byte.
    const shown = (id: string, withContent: boolean, unassignedDeviceId: string | undefined) =>
      JSON.stringify(
        omitNulls(toMessageView(repository.get(id) as MessageRecord, withContent, unassignedDeviceId)),
      );
    for (const withContent of [true, false]) {
      // With a device to name for the messages none took, and with none (several modems).
      for (const unassignedDeviceId of [listForm.unassignedDeviceId, undefined]) {
        for (const search of [undefined, '1555']) {
          const page = await repository.list(
            { limit: 10, offset: 0, search },
            { withContent, unassignedDeviceId },
          );
          const ids = (JSON.parse(page.json) as MessageView[]).map((view) => view.id);
          expect([...ids].sort()).toEqual(kinds.map((record) => record.id).sort());
          expect(page.json).toBe(
            `[${ids.map((id) => shown(id, withContent, unassignedDeviceId)).join(',')}]`,
          );
        }
      }
    }
  });

  it('stops finding a message once retention removed it', async () => {
    const sent = (id: string, createdAt: number) =>
      message({
        id,
        createdAt,
        state: 'Sent',
        states: { Sent: createdAt },
        content: { kind: 'text', text: `code ${id}` },
      });
    await repository.insert(sent('old', start));
    await repository.insert(sent('new', start + 2 * minute));
    expect(await repository.pruneOlderThan(start + minute)).toBe(1);
    for (const search of ['code', '1555']) {
      const page = await listedPage(repository, { limit: 10, offset: 0, search });
      expect([page.total, page.items.map((record) => record.id)]).toEqual([1, ['new']]);
    }
  });

  it('knows the highest sequence after the clock was set back, and after rows came in out of order', async () => {
    expect(repository.highestSequence()).toBe(0);
    await repository.insert(message({ id: 'before', createdAt: start + 10 * minute, sequence: 5 }));
    // The PC's clock was set back: the next message is older by createdAt, newer by sequence.
    await repository.insert(message({ id: 'clock-set-back', createdAt: start, sequence: 6 }));
    await reopen();
    expect(repository.highestSequence()).toBe(6);
    // Rows moved in from the journals come in file order, not sequence order.
    await repository.insert(message({ id: 'moved-newest', createdAt: start + 20 * minute, sequence: 9 }));
    await repository.insert(message({ id: 'moved-older', createdAt: start + 15 * minute, sequence: 7 }));
    expect(repository.highestSequence()).toBe(9);
  });

  it('lists the hand-overs between two times, of messages handed over, without the rest', async () => {
    const handed = (id: string, state: MessageState, processedAt: number, deviceId?: string) =>
      message({ id, state, states: { [state]: processedAt + 1, Processed: processedAt }, deviceId });
    await repository.insert(handed('recent-sent', 'Sent', start + 10 * minute, 'modem-1'));
    await repository.insert(handed('recent-processed', 'Processed', start + 11 * minute, 'modem-2'));
    await repository.insert(handed('old-delivered', 'Delivered', start, 'modem-1'));
    await repository.insert(handed('recent-cancelled', 'Cancelled', start + 12 * minute, 'modem-1'));
    await repository.insert(handed('no-device', 'Failed', start + 13 * minute));
    await repository.insert(handed('too-new', 'Sent', start + 20 * minute, 'modem-2'));
    await repository.insert(message({ id: 'pending' }));
    const handOvers = repository.handOversBetween(start + minute, start + 20 * minute);
    expect(handOvers.sort((left, right) => left.at - right.at)).toEqual([
      { deviceId: 'modem-1', at: start + 10 * minute },
      { deviceId: 'modem-2', at: start + 11 * minute },
    ]);
  });

  it('rejects an insert after close with StoreClosed rather than throwing', async () => {
    await database.close();
    const late = repository.insert(message({ id: 'late' }));
    await expect(late).rejects.toSatisfy((error) => isGatewayError(error, ErrorCode.StoreClosed));
    ({ database, repository } = openAt(dir.path));
    expect(repository.get('late')).toBeUndefined();
  });

  it('prunes old messages in a final state but keeps old ones still in flight', async () => {
    await repository.insert(message({ id: 'old-sent', createdAt: start, state: 'Sent' }));
    await repository.insert(message({ id: 'old-failed', createdAt: start + 1, state: 'Failed' }));
    await repository.insert(message({ id: 'old-pending', createdAt: start + 2 }));
    await repository.insert(message({ id: 'old-processed', createdAt: start + 3, state: 'Processed' }));
    await repository.insert(message({ id: 'recent-sent', createdAt: start + 10 * minute, state: 'Sent' }));
    expect(await repository.pruneOlderThan(start + minute)).toBe(2);
    const remaining = ['recent-sent', 'old-processed', 'old-pending'];
    expect((await listedPage(repository, { limit: 10, offset: 0 })).items.map((record) => record.id)).toEqual(
      remaining,
    );
    expect((await listedPage(repository, { limit: 1, offset: 0 })).total).toBe(3);
    expect(repository.inState('Sent').map((record) => record.id)).toEqual(['recent-sent']);
    await reopen();
    expect((await listedPage(repository, { limit: 10, offset: 0 })).items.map((record) => record.id)).toEqual(
      remaining,
    );
  });
});

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('SqliteMessageRepository.list at 12,000 messages', () => {
  const count = 12_000;
  const devices = ['modem-a', 'modem-b', 'modem-c'];
  const finalStates: MessageState[] = ['Sent', 'Delivered', 'Failed', 'Cancelled'];
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  let repository: SqliteMessageRepository;
  let all: MessageRecord[];

  beforeAll(async () => {
    dir = await temporaryDirectory();
    ({ database, repository } = openAt(dir.path));
    const random = seededRandom(42);
    all = [];
    const writes: Promise<void>[] = [];
    for (let n = 0; n < count; n++) {
      // Like a real history: few messages in flight, most in a final state.
      const roll = random();
      const state: MessageState =
        roll < 0.03
          ? 'Pending'
          : roll < 0.05
            ? 'Processed'
            : (finalStates[Math.floor(random() * 4)] as MessageState);
      // Mostly increasing times with jitter and ties, like clients enqueueing concurrently.
      const createdAt = start + n * 1000 + Math.floor(random() * 3000) - 1500;
      const record = message({
        id: `msg-${n}`,
        state,
        createdAt,
        sequence: n,
        deviceId: random() < 0.8 ? devices[n % devices.length] : undefined,
        content: { kind: 'text', text: n % 97 === 0 ? `Your CODE is ${n}` : `note ${n}` },
        recipients: [{ phoneNumber: `+1555${String(n % 5000).padStart(7, '0')}`, state }],
      });
      all.push(record);
      writes.push(repository.insert(record));
    }
    await Promise.all(writes);
  });

  afterAll(async () => {
    await database.close();
    await dir.remove();
  });

  /** The obvious implementation the SQL one must agree with. */
  function expected(query: MessageQuery): { total: number; ids: string[] } {
    const needle = query.search?.toLowerCase();
    const matches = all
      .filter(
        (record) =>
          (query.state === undefined || record.state === query.state) &&
          (query.deviceId === undefined || record.deviceId === query.deviceId) &&
          (query.from === undefined || record.createdAt >= query.from) &&
          (query.to === undefined || record.createdAt < query.to) &&
          (needle === undefined ||
            (record.content.kind === 'text' && record.content.text.toLowerCase().includes(needle)) ||
            record.recipients.some((recipient) => recipient.phoneNumber.includes(needle))),
      )
      .map((record, position) => ({ record, position }))
      .sort(
        (left, right) =>
          (right.record.createdAt - left.record.createdAt || right.position - left.position) *
          (query.oldestFirst ? -1 : 1),
      )
      .map(({ record }) => record.id);
    return { total: matches.length, ids: matches.slice(query.offset, query.offset + query.limit) };
  }

  async function actual(query: MessageQuery): Promise<{ total: number; ids: string[] }> {
    const page = await listedPage(repository, query);
    return { total: page.total, ids: page.items.map((record) => record.id) };
  }

  const queries: [string, MessageQuery][] = [
    ['the newest page with no filter', { limit: 50, offset: 0 }],
    ['a deep page with no filter', { limit: 50, offset: 11_000 }],
    ['a page past the end', { limit: 50, offset: 11_990 }],
    ['a time range only', { limit: 25, offset: 10, from: start + 3_000_000, to: start + 3_600_000 }],
    ['a common state', { limit: 50, offset: 100, state: 'Delivered' }],
    [
      'a common state in a time range',
      { limit: 50, offset: 3, state: 'Sent', from: start + 100_000, to: start + 900_000 },
    ],
    ['a rare state', { limit: 50, offset: 10, state: 'Pending' }],
    [
      'a rare state in a time range',
      { limit: 5, offset: 0, state: 'Processed', from: start, to: start + 4_000_000 },
    ],
    ['a rare state and a search', { limit: 50, offset: 0, state: 'Pending', search: '+15550001' }],
    ['a device and a state', { limit: 20, offset: 5, state: 'Failed', deviceId: 'modem-b' }],
    ['a search over text, case-insensitive', { limit: 500, offset: 0, search: 'code' }],
    ['a search over phone numbers', { limit: 50, offset: 0, search: '0004999' }],
    ['a search in capitals', { limit: 50, offset: 0, search: 'YOUR' }],
    ['a search shorter than a trigram', { limit: 50, offset: 0, search: 'Co' }],
    ['a deep page of a search', { limit: 20, offset: 100, search: 'code' }],
    ['a search for the last page of its matches', { limit: 7, offset: 0, search: '0004999' }],
    ['a number from its "+"', { limit: 50, offset: 3, search: '+1555000012' }],
    ['digits in the text and in the numbers', { limit: 50, offset: 0, search: '970' }],
    ['a search, oldest first', { limit: 30, offset: 2, search: '+155500012', oldestFirst: true }],
    [
      'a search in a time range',
      { limit: 10, offset: 1, search: '0001', from: start + 500_000, to: start + 7_000_000 },
    ],
    [
      'a text search in a time range',
      { limit: 10, offset: 0, search: 'code', from: start + 97_000, to: start + 3_000_000 },
    ],
    ['a search and a device', { limit: 10, offset: 4, search: '+1555', deviceId: 'modem-c' }],
    ['a search with more matches than are counted ahead', { limit: 50, offset: 20, search: '1555' }],
    ['every match of a search, no limit', { limit: 2 ** 31, offset: 7, search: '+15550001' }],
    [
      'every filter at once',
      {
        limit: 10,
        offset: 1,
        state: 'Pending',
        deviceId: 'modem-a',
        from: start,
        to: start + 6_000_000,
        search: '1',
      },
    ],
  ];

  it.each(queries)('agrees with a plain filter-and-sort for %s', async (_name, query) => {
    const result = await actual(query);
    expect(result).toEqual(expected(query));
    // Every query here selects something: an empty page on both sides would prove nothing.
    expect(result.ids.length).toBeGreaterThan(0);
  });

  it('still counts the matches of a search on a page past its last one', async () => {
    const query = { limit: 50, offset: 5_000, search: 'code' };
    const result = await actual(query);
    expect(result).toEqual(expected(query));
    expect(result.ids).toEqual([]);
    expect(result.total).toBeGreaterThan(0);
  });

  it('counts and queues the pending messages the same as a scan', () => {
    const pending = all.filter((record) => record.state === 'Pending').map((record) => record.id);
    expect(repository.countInState('Pending')).toBe(pending.length);
    expect(new Set(queuedIds(repository))).toEqual(new Set(pending));
  });

  it('lists the same pages after reopening', async () => {
    await database.close();
    ({ database, repository } = openAt(dir.path));
    expect(repository.count()).toBe(count);
    for (const [, query] of queries) expect(await actual(query)).toEqual(expected(query));
  });
});
