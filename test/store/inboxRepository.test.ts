import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IncomingRecord } from '../../server/contract/domain/incoming.js';
import { SqliteInboxRepository } from '../../server/store/inboxRepository.js';
import type { InboxQuery } from '../../server/store/repositories.js';
import { openTestDatabase, type TestDatabase, temporaryDirectory } from './storeTestKit.js';

function incoming(overrides: Partial<IncomingRecord> & { id: string; receivedAt: number }): IncomingRecord {
  return {
    type: 'SMS',
    deviceId: 'modem-1',
    simNumber: 1,
    sender: '+15550001',
    content: `text of ${overrides.id}`,
    ...overrides,
  };
}

describe('SqliteInboxRepository', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let database: TestDatabase;
  let inbox: SqliteInboxRepository;
  const open = () => {
    database = openTestDatabase(dir.path);
    inbox = new SqliteInboxRepository(database.db, database.commits, database.pages);
  };

  beforeEach(async () => {
    dir = await temporaryDirectory();
    open();
  });

  afterEach(async () => {
    await database.close();
    await dir.remove();
  });

  it('stores a message read twice only once and says so', async () => {
    expect(await inbox.insert(incoming({ id: 'x', receivedAt: 1 }))).toBe(true);
    expect(await inbox.insert(incoming({ id: 'x', receivedAt: 2, content: 'again' }))).toBe(false);
    expect(inbox.get('x')?.content).toBe('text of x');
    expect(inbox.count()).toBe(1);
  });

  it('answers a second insert of an id only once the first is durable', async () => {
    const first = inbox.insert(incoming({ id: 'x', receivedAt: 1 }));
    let secondSettled = false;
    const second = inbox.insert(incoming({ id: 'x', receivedAt: 1 })).then((stored) => {
      secondSettled = true;
      return stored;
    });
    await Promise.resolve();
    expect(secondSettled).toBe(false);
    expect(await Promise.all([first, second])).toEqual([true, false]);
  });

  it("lists only an audience's messages (an app's incoming rule), with a search too", async () => {
    await inbox.insert(incoming({ id: 'a', receivedAt: 10, content: 'order thanks', repliesTo: 'shop' }));
    await inbox.insert(incoming({ id: 'b', receivedAt: 20, deviceId: 'modem-2', content: 'order where' }));
    await inbox.insert(incoming({ id: 'c', receivedAt: 30, content: 'see you', repliesTo: 'clinic' }));
    const ids = async (query: Omit<InboxQuery, 'limit' | 'offset'>) => {
      const page = await inbox.list({ limit: 10, offset: 0, ...query });
      return { total: page.total, ids: page.items.map((item) => item.id) };
    };
    expect(await ids({ audience: { kind: 'everything' } })).toEqual({ total: 3, ids: ['c', 'b', 'a'] });
    expect(await ids({ audience: { kind: 'nothing' } })).toEqual({ total: 0, ids: [] });
    expect(await ids({ audience: { kind: 'replies', appId: 'shop' } })).toEqual({ total: 1, ids: ['a'] });
    expect(await ids({ audience: { kind: 'devices', targets: [{ deviceId: 'modem-2' }] } })).toEqual({
      total: 1,
      ids: ['b'],
    });
    // A search long enough for the index, and one short enough for a scan.
    expect(await ids({ audience: { kind: 'replies', appId: 'shop' }, search: 'order' })).toEqual({
      total: 1,
      ids: ['a'],
    });
    expect(
      await ids({ audience: { kind: 'devices', targets: [{ deviceId: 'modem-1' }] }, search: 'or' }),
    ).toEqual({
      total: 1,
      ids: ['a'],
    });
  });

  it("lists an audience's SIM slot of a modem, and every slot of another", async () => {
    await inbox.insert(incoming({ id: 'slot-1', receivedAt: 10, deviceId: 'phone', simNumber: 1 }));
    await inbox.insert(incoming({ id: 'slot-2', receivedAt: 20, deviceId: 'phone', simNumber: 2 }));
    await inbox.insert(incoming({ id: 'modem', receivedAt: 30, deviceId: 'modem-2', simNumber: 1 }));
    await inbox.insert(incoming({ id: 'other', receivedAt: 40, deviceId: 'modem-3', simNumber: 2 }));
    const audience = {
      kind: 'devices',
      targets: [{ deviceId: 'phone', simNumber: 2 }, { deviceId: 'modem-2' }],
    } as const;
    const page = await inbox.list({ limit: 10, offset: 0, audience });
    expect({ total: page.total, ids: page.items.map((item) => item.id) }).toEqual({
      total: 2,
      ids: ['modem', 'slot-2'],
    });
  });

  it('lists newest first by receivedAt, filtered by type, device, time and search', async () => {
    await inbox.insert(
      incoming({ id: 'a', receivedAt: 10, sender: '+15550001', content: 'Meeting at noon' }),
    );
    await inbox.insert(incoming({ id: 'b', receivedAt: 30, deviceId: 'modem-2' }));
    await inbox.insert(incoming({ id: 'c', receivedAt: 20, type: 'DATA_SMS', content: 'AAEC', port: 2948 }));
    await inbox.insert(incoming({ id: 'd', receivedAt: 40, sender: '+4930123', content: 'noon again' }));
    const ids = async (query: Parameters<SqliteInboxRepository['list']>[0]) =>
      (await inbox.list(query)).items.map((r) => r.id);
    expect(await ids({ limit: 10, offset: 0 })).toEqual(['d', 'b', 'c', 'a']);
    expect(await ids({ limit: 2, offset: 1 })).toEqual(['b', 'c']);
    expect((await inbox.list({ limit: 2, offset: 1 })).total).toBe(4);
    expect(await ids({ limit: 10, offset: 0, type: 'DATA_SMS' })).toEqual(['c']);
    expect(await ids({ limit: 10, offset: 0, deviceId: 'modem-2' })).toEqual(['b']);
    expect(await ids({ limit: 10, offset: 0, from: 20, to: 40 })).toEqual(['b', 'c']);
    expect(await ids({ limit: 10, offset: 0, search: 'NOON' })).toEqual(['d', 'a']);
    expect(await ids({ limit: 10, offset: 0, search: '4930' })).toEqual(['d']);
    expect(await ids({ limit: 10, offset: 0, search: '+1555' })).toEqual(['b', 'c', 'a']);
    expect(await ids({ limit: 10, offset: 0, search: '+1555', from: 20, to: 40 })).toEqual(['b', 'c']);
    expect(await ids({ limit: 10, offset: 0, search: 'noon', from: 11 })).toEqual(['d']);
    expect(await ids({ limit: 10, offset: 0, search: '5550001', type: 'DATA_SMS' })).toEqual(['c']);
    // Across the line between sender and text: scanned, as the indexes keep no such line.
    expect(await ids({ limit: 10, offset: 0, search: '0001\nmeeting' })).toEqual(['a']);
    expect((await inbox.list({ limit: 1, offset: 0, search: 'noon' })).total).toBe(2);
    // The Base64 of a data message is not searched: "AAE" is in c's content only.
    expect(await ids({ limit: 10, offset: 0, search: 'aae' })).toEqual([]);
  });

  it('prunes messages received before the cut-off, durably', async () => {
    await inbox.insert(incoming({ id: 'old', receivedAt: 10 }));
    await inbox.insert(incoming({ id: 'new', receivedAt: 100 }));
    expect(await inbox.pruneOlderThan(50)).toBe(1);
    await database.close();
    open();
    expect((await inbox.list({ limit: 10, offset: 0 })).items.map((record) => record.id)).toEqual(['new']);
    // Gone from the search indexes too, for text and for numbers.
    for (const search of ['text of', '5550001']) {
      const page = await inbox.list({ limit: 10, offset: 0, search });
      expect([page.total, page.items.map((record) => record.id)]).toEqual([1, ['new']]);
    }
    // A pruned id is no longer a duplicate: the same SMS read again later is stored again.
    expect(await inbox.insert(incoming({ id: 'old', receivedAt: 120 }))).toBe(true);
  });
});
