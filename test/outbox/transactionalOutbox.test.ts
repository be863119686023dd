/**
 * The outbox is written in the commit that stores the fact it reports, for every kind of
 * delivery. Checked the way a process started after kill -9 would see it: the moment the fact's
 * write is durable (the lifecycle's or the inbox's promise resolves, after which the modem may
 * delete or acknowledge the SMS), a second connection to the database file must already find the
 * webhook's, the mail's and the deliver_sm's jobs. When the
 * delivery was written by a later batch, a kill in between kept the fact and lost its webhook;
 * that window lasts until the next turn of the event loop, too short for a kill from outside to
 * hit reliably (test/faults/crashRecovery.test.ts checks the whole path under kills).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import type { OutboxJob } from '../../server/contract/domain/outboxJob.js';
import { settingDefaults } from '../../server/contract/schemas/settingsSchema.js';
import type { SubmitMemo } from '../../server/doors/smpp/deliveryReceipt.js';
import { SmppDeliveries } from '../../server/doors/smpp/smppDeliveries.js';
import { MailForwarding } from '../../server/doors/smtp/mailForwarding.js';
import { silentLogger } from '../../server/logging/logger.js';
import { OptOutList } from '../../server/services/desk/optOut/optOutList.js';
import { EventBus } from '../../server/services/events/eventBus.js';
import { createFactAnnouncer } from '../../server/services/events/factAnnouncer.js';
import { InboxService } from '../../server/services/inbox/inboxService.js';
import { MessageLifecycle } from '../../server/services/messages/messageLifecycle.js';
import { createCallRecorder } from '../../server/services/operations/callRecorder.js';
import { Outbox } from '../../server/services/outbox/outbox.js';
import {
  deliveryOf,
  type WebhookDelivery,
  type WebhookJobPayload,
} from '../../server/services/webhooks/webhookDelivery.js';
import { WebhookDispatcher } from '../../server/services/webhooks/webhookDispatcher.js';
import { databaseFileName } from '../../server/store/sqlite/database.js';
import { openSqlite } from '../../server/store/sqlite/sqlite.js';
import { openStorage, type Storage } from '../../server/store/storage.js';

const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
let dataDir: string;
let storage: Storage;
let outbox: Outbox;
let dispatcher: WebhookDispatcher;
let forwarding: MailForwarding;
let smppDeliveries: SmppDeliveries;
const events = new EventBus();
/** Ends the attempts in flight (each fails), so the dispatcher can stop. */
const releases: (() => void)[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'smsgw-outbox-'));
  storage = await openStorage({ dataDir, clock, logger: silentLogger });
  outbox = new Outbox({ store: storage.openCollection<OutboxJob>('outbox'), clock, logger: silentLogger });
  dispatcher = new WebhookDispatcher({
    outbox,
    targets: () => [
      { id: 'sent-hook', url: 'http://127.0.0.1:9/sent', event: 'sms:sent' },
      { id: 'received-hook', url: 'http://127.0.0.1:9/received', event: 'sms:received' },
      { id: 'call-hook', url: 'http://127.0.0.1:9/calls', event: 'call:missed' },
      { id: 'optout-hook', url: 'http://127.0.0.1:9/optouts', event: 'optout:added' },
      { id: 'balance-hook', url: 'http://127.0.0.1:9/balance', event: 'modem:low-balance' },
      { id: 'mms-hook', url: 'http://127.0.0.1:9/mms', event: 'mms:received' },
    ],
    policy: () => ({ retryCount: 1, internetRequired: false, pingIntervalSeconds: null }),
    events,
    // Answers only when the test ends: the deliveries stay pending, as after a crash.
    post: () => new Promise((_, reject) => releases.push(() => reject(new Error('test over')))),
    clock,
    logger: silentLogger,
    health: async () => ({ status: 'pass' }),
  });
  await dispatcher.start();
  // No relay answers and no SMPP receiver is bound: their jobs stay pending, as after a crash.
  forwarding = new MailForwarding({
    outbox,
    settings: () => ({
      ...settingDefaults.email_forward,
      enabled: true,
      relay_host: '127.0.0.1',
      relay_port: 9,
    }),
    events,
    logger: silentLogger,
  });
  forwarding.start();
  smppDeliveries = new SmppDeliveries({
    outbox,
    memos: storage.openCollection<SubmitMemo>('smpp-memos'),
    receivers: () => [],
    hearsIncoming: () => true,
    receivingNumber: () => '+15550000000',
    forwardIncoming: () => true,
    incomingAsParts: () => false,
    events,
    clock,
    logger: silentLogger,
  });
  smppDeliveries.start();
});

afterEach(async () => {
  for (const release of releases.splice(0)) release();
  await dispatcher.stop();
  await forwarding.stop();
  await smppDeliveries.stop();
  await outbox.stop();
  await storage.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** What a process that starts after a crash right now would find in the outbox. */
function jobsSeenFromOutside(): OutboxJob[] {
  const outside = openSqlite(join(dataDir, databaseFileName), { readOnly: true });
  try {
    const rows = outside
      .prepare<[string], { body: string }>('SELECT body FROM collections WHERE collection = ?')
      .all('outbox');
    return rows.map((row) => JSON.parse(row.body) as OutboxJob);
  } finally {
    outside.close();
  }
}

function outboxSeenFromOutside(): WebhookDelivery[] {
  return jobsSeenFromOutside()
    .filter((job): job is OutboxJob<WebhookJobPayload> => job.kind === 'webhook')
    .map(deliveryOf);
}

function pendingMessage(): MessageRecord {
  return {
    id: 'msg-1',
    deviceId: 'modem-a',
    content: { kind: 'text', text: 'hello' },
    recipients: [{ phoneNumber: '+15551234567', state: 'Processed', updatedAt: clock.now() }],
    withDeliveryReport: true,
    priority: 0,
    isEncrypted: false,
    createdAt: clock.now(),
    sequence: 1,
    states: { Pending: clock.now(), Processed: clock.now() },
    state: 'Processed',
  };
}

describe('the transactional outbox', () => {
  it('has a message’s sms:sent delivery on disk once the Sent state is', async () => {
    await storage.messages.insert(pendingMessage());
    const lifecycle = new MessageLifecycle(storage.messages, events, clock, silentLogger);
    await lifecycle.markRecipientSent('msg-1', '+15551234567', [7]);
    const found = outboxSeenFromOutside().filter((delivery) => delivery.event === 'sms:sent');
    expect(found).toEqual([
      expect.objectContaining({ webhookId: 'sent-hook', state: 'pending', deviceId: 'modem-a' }),
    ]);
  });

  it('has an incoming SMS’s webhook, mail and deliver_sm on disk once the SMS is', async () => {
    const inbox = new InboxService({
      repository: storage.inbox,
      pendingParts: storage.pendingParts,
      events,
      clock,
      logger: silentLogger,
    });
    await inbox.receive('modem-a', 1, {
      sender: { number: '+15557654321' },
      timestamp: { epochMs: clock.now() },
      text: 'Hi there',
      bytes: new TextEncoder().encode('Hi there'),
    });
    expect(outboxSeenFromOutside()).toEqual([
      expect.objectContaining({ webhookId: 'received-hook', event: 'sms:received', state: 'pending' }),
    ]);
    const kinds = jobsSeenFromOutside().map((job) => `${job.kind} ${job.state}`);
    expect(kinds.sort()).toEqual(['mail pending', 'smpp pending', 'webhook pending']);
  });

  it('has a missed call’s delivery on disk once the call is', async () => {
    let stored: Promise<void> | undefined;
    const recordCall = createCallRecorder({
      addCall: (call, inCommit) => {
        stored = storage.modemRecords.addCall(call, inCommit);
        return stored;
      },
      events,
      logger: silentLogger,
    });
    recordCall({ deviceId: 'modem-a', at: clock.now(), number: '+15557654321', rejected: false });
    await stored;
    expect(outboxSeenFromOutside()).toEqual([
      expect.objectContaining({ webhookId: 'call-hook', event: 'call:missed', state: 'pending' }),
    ]);
  });

  it('has an opt-out’s optout:added delivery in the commit that stores the opt-out', async () => {
    const optOuts = new OptOutList(storage.sqlite.db, storage.sqlite.commits, {
      key: (number) => number,
      clock,
      events,
    });
    await optOuts.add('+15557654321', 'keyword', 'modem-a');
    expect(outboxSeenFromOutside()).toEqual([
      expect.objectContaining({ webhookId: 'optout-hook', event: 'optout:added', state: 'pending' }),
    ]);
  });

  it('has an announced fact’s deliveries on disk before anyone hears of it', async () => {
    const facts = createFactAnnouncer(storage.sqlite.commits, events);
    const heard: string[] = [];
    const stopHearing = [
      events.on('modem:low-balance', () => heard.push(`low-balance ${outboxSeenFromOutside().length}`)),
      events.on('gateway:fact', (fact) => heard.push(`${fact.event} ${outboxSeenFromOutside().length}`)),
    ];
    await facts.announce('modem:low-balance', {
      deviceId: 'modem-a',
      balance: 1.5,
      threshold: 5,
      answer: 'Balance 1.50',
      at: clock.now(),
    });
    await facts.announce('gateway:fact', {
      event: 'mms:received',
      deviceId: 'phone-1',
      payload: { messageId: 'mms-1' },
    });
    for (const stop of stopHearing) stop();
    expect(
      outboxSeenFromOutside()
        .map((delivery) => delivery.webhookId)
        .sort(),
    ).toEqual(['balance-hook', 'mms-hook']);
    // Each was emitted only once its delivery could be read from outside.
    expect(heard).toEqual(['low-balance 1', 'mms:received 2']);
  });
});
