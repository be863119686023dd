import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { PendingGroup } from '../../server/contract/domain/incoming.js';
import type { MessageState } from '../../server/contract/domain/message.js';
import type { OutboxJob } from '../../server/contract/domain/outboxJob.js';
import { silentLogger } from '../../server/logging/logger.js';
import { Outbox } from '../../server/services/outbox/outbox.js';
import {
  deliveryOf,
  jobOfStoredDelivery,
  type WebhookDelivery,
  type WebhookJobPayload,
} from '../../server/services/webhooks/webhookDelivery.js';
import { openStorage, type Storage } from '../../server/store/storage.js';
import { listForm, recordingLogger, temporaryDirectory } from './storeTestKit.js';

const fixture = join(import.meta.dirname, '..', 'fixtures', 'journal-data-dir');
const journals = ['inbox.journal', 'logs.journal', 'messages.journal', 'webhook-outbox.journal'];

/**
 * The journal lines of a fixture file replayed the simple way (puts and deletes in order), as
 * the independent account of what the migration must produce.
 */
async function liveRecords(file: string): Promise<Map<string | number, { id: string | number }>> {
  const live = new Map<string | number, { id: string | number }>();
  for (const line of (await readFile(join(fixture, file), 'utf8')).split('\n')) {
    if (!line) continue;
    const entry = JSON.parse(line.slice(9)) as { p?: { id: string | number }; d?: string | number };
    if (entry.p) live.set(entry.p.id, entry.p);
    else if (entry.d !== undefined) live.delete(entry.d);
  }
  return live;
}

describe('migrating a data directory written by the journal store', () => {
  let dir: { path: string; remove: () => Promise<void> };
  let storage: Storage | undefined;

  beforeEach(async () => {
    dir = await temporaryDirectory();
    await cp(fixture, dir.path, { recursive: true, filter: (source) => !source.endsWith('README.md') });
  });

  afterEach(async () => {
    await storage?.close();
    storage = undefined;
    await dir.remove();
  });

  async function open() {
    const { logger, records } = recordingLogger();
    storage = await openStorage({
      dataDir: dir.path,
      clock: new ManualClock(Date.UTC(2026, 10, 25)),
      logger,
    });
    return { storage, records };
  }

  it('keeps every live record of every journal, exactly as it was', async () => {
    const { storage } = await open();
    const messages = await liveRecords('messages.journal');
    expect(messages.size).toBe(380);
    for (const [id, record] of messages) expect(storage.messages.get(String(id))).toEqual(record);
    expect(storage.messages.count()).toBe(380);
    // Records the journal deleted stay deleted.
    expect(storage.messages.get('fixture-message-0')).toBeUndefined();

    const inbox = await liveRecords('inbox.journal');
    for (const [id, record] of inbox) expect(storage.inbox.get(String(id))).toEqual(record);
    expect((await storage.inbox.list({ limit: 500, offset: 0 })).total).toBe(300);

    const logs = await liveRecords('logs.journal');
    expect(storage.logs.list({})).toEqual([...logs.values()]);

    const deliveries = await liveRecords('webhook-outbox.journal');
    const outbox = storage.openCollection<WebhookDelivery>('webhook-outbox');
    expect([...outbox.values()].sort((a, b) => a.createdAt - b.createdAt)).toEqual([...deliveries.values()]);

    const parts = JSON.parse(await readFile(join(fixture, 'pending-parts.json'), 'utf8')) as {
      groups: PendingGroup[];
    };
    expect(await storage.pendingParts.load()).toEqual(parts.groups);
  });

  it('answers queries on the migrated records: the queue, history by state and search', async () => {
    const { storage } = await open();
    const byState = async (state: MessageState) =>
      (await storage.messages.list({ state, limit: 500, offset: 0 }, listForm)).total;
    expect(storage.messages.countInState('Pending')).toBe(40);
    // Each queued message is in the queue's table: ready, or expired by the end of time.
    const endOfTime = Number.MAX_SAFE_INTEGER - 1;
    const queued = [
      ...storage.messages.waiting('FIFO', endOfTime, 100).map((entry) => entry.record),
      ...storage.messages.expiredWaiting(endOfTime),
    ];
    expect(queued).toHaveLength(40);
    expect(storage.messages.inState('Processed')).toHaveLength(10);
    expect(
      (await byState('Pending')) +
        (await byState('Processed')) +
        (await byState('Sent')) +
        (await byState('Delivered')),
    ).toBe(380 - (await byState('Failed')) - (await byState('Cancelled')));
    expect(
      (await storage.messages.list({ search: 'grüße', limit: 500, offset: 0 }, listForm)).total,
    ).toBeGreaterThan(0);
    // The logs go on from the last migrated id.
    expect(storage.logs.append({ priority: 'INFO', module: 'test', message: 'next', createdAt: 1 }).id).toBe(
      301,
    );
  });

  it('moves the journals aside (never deletes them) and logs what it migrated', async () => {
    const { records } = await open();
    const left = await readdir(dir.path);
    for (const file of [...journals, 'pending-parts.json']) expect(left).not.toContain(file);
    expect((await readdir(join(dir.path, 'journals-migrated'))).sort()).toEqual(
      [...journals, 'pending-parts.json'].sort(),
    );
    for (const file of journals) {
      expect(await readFile(join(dir.path, 'journals-migrated', file))).toEqual(
        await readFile(join(fixture, file)),
      );
    }
    const report = records.find((record) => record.message.startsWith('migrated the journal store'));
    expect(report?.context).toMatchObject({ messages: 380, inbox: 300, logs: 300, 'webhook-outbox': 200 });
  });

  it('does not migrate twice: a second start finds the database and nothing to move', async () => {
    const first = await open();
    await first.storage.close();
    storage = undefined;
    const { storage: second, records } = await open();
    expect(second.messages.count()).toBe(380);
    expect(records.some((record) => record.message.startsWith('migrated'))).toBe(false);
  });

  it('hands its webhook deliveries to the one outbox: the pending resume, the rest stay history', async () => {
    const { storage } = await open();
    const deliveries = [...(await liveRecords('webhook-outbox.journal')).values()] as WebhookDelivery[];
    const clock = new ManualClock(Date.UTC(2026, 10, 25));
    const outbox = new Outbox({
      store: storage.openCollection<OutboxJob>('outbox'),
      clock,
      logger: silentLogger,
    });
    try {
      const legacy = storage.openCollection<WebhookDelivery>('webhook-outbox');
      expect(await outbox.adopt(legacy, jobOfStoredDelivery)).toBe(200);
      expect([...legacy.values()]).toEqual([]);
      expect(outbox.pendingCount('webhook')).toBe(50);
      const shown = outbox.list<WebhookJobPayload>({ kind: 'webhook', limit: 500 }).map(deliveryOf);
      const byId = (left: WebhookDelivery, right: WebhookDelivery) => left.id.localeCompare(right.id);
      expect(shown.sort(byId)).toEqual(deliveries.sort(byId));
    } finally {
      await outbox.stop();
    }
  });

  it('skips a torn last line (a write cut by a power cut) and says so', async () => {
    const path = join(dir.path, 'messages.journal');
    const content = await readFile(path, 'utf8');
    // The last line (a prune's delete) loses its end: that delete was never acknowledged.
    await writeFile(path, content.slice(0, content.length - 10));
    const { storage, records } = await open();
    expect(storage.messages.count()).toBe(381);
    expect(records.find((record) => record.priority === 'WARN')?.context).toMatchObject({
      file: 'messages.journal',
      skippedLines: 1,
    });
  });
});
