import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type {
  IncomingMessageEvent,
  PendingGroup,
  PendingPartsStore,
  ReceivedSms,
} from '../../server/contract/domain/incoming.js';
import { silentLogger } from '../../server/logging/logger.js';
import { EventBus } from '../../server/services/events/eventBus.js';
import { InboxService } from '../../server/services/inbox/inboxService.js';
import { MemoryInbox, memoryPendingParts } from './memoryInbox.js';

const hour = 60 * 60 * 1000;
const sentAt = Date.UTC(2025, 11, 31, 23, 0);

function textSms(text: string, sender = '+15550001', concat?: [number, number, number]): ReceivedSms {
  const sms: ReceivedSms = {
    sender: { number: sender },
    timestamp: { epochMs: sentAt },
    text,
    bytes: new TextEncoder().encode(text),
  };
  if (concat) sms.concatenation = { reference: concat[0], partsCount: concat[1], partNumber: concat[2] };
  return sms;
}

interface Harness {
  clock: ManualClock;
  inbox: MemoryInbox;
  events: EventBus;
  received: IncomingMessageEvent[];
  service: InboxService;
}

/** Shared by the harnesses of one test, as the database is by a gateway and its restart. */
let pendingParts: PendingPartsStore;
const running: InboxService[] = [];

beforeEach(() => {
  pendingParts = memoryPendingParts();
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.stop()));
});

async function harness(
  options: { clock?: ManualClock; inbox?: MemoryInbox; store?: PendingPartsStore } = {},
) {
  const clock = options.clock ?? new ManualClock();
  const inbox = options.inbox ?? new MemoryInbox();
  const events = new EventBus();
  const received: IncomingMessageEvent[] = [];
  events.on('message:received', (event) => received.push(event));
  const service = new InboxService({
    repository: inbox,
    events,
    pendingParts: options.store ?? pendingParts,
    clock,
    logger: silentLogger,
  });
  await service.start();
  running.push(service);
  const result: Harness = { clock, inbox, events, received, service };
  return result;
}

describe('InboxService', () => {
  it('stores a single-part text SMS and announces it once', async () => {
    const { inbox, received, service } = await harness();
    await service.receive('dev1', 1, textSms('hello'));
    expect(inbox.all()).toMatchObject([
      { type: 'SMS', sender: '+15550001', content: 'hello', sentAt, simNumber: 1 },
    ]);
    expect(received).toHaveLength(1);
    expect(received[0]?.content).toBe('hello');
  });

  it('stores the same SMS read twice only once and emits one event', async () => {
    const { inbox, received, service } = await harness();
    await service.receive('dev1', 1, textSms('twice'));
    await service.receive('dev1', 1, textSms('twice'));
    expect(inbox.all()).toHaveLength(1);
    expect(received).toHaveLength(1);
  });

  it('keeps two different SMS with the same text from different senders apart', async () => {
    const { inbox, service } = await harness();
    await service.receive('dev1', 1, textSms('same', '+1'));
    await service.receive('dev1', 1, textSms('same', '+2'));
    expect(inbox.all()).toHaveLength(2);
  });

  it('stores a message with a destination port as DATA_SMS with Base64 content', async () => {
    const { inbox, received, service } = await harness();
    const bytes = Uint8Array.from([0xde, 0xad, 0xbe, 0xef]);
    await service.receive('dev1', 2, {
      sender: { number: '+15550002' },
      timestamp: { epochMs: sentAt },
      bytes,
      ports: { destination: 8200, source: 0 },
    });
    expect(inbox.all()).toMatchObject([{ type: 'DATA_SMS', content: '3q2+7w==', port: 8200, simNumber: 2 }]);
    expect(received[0]).toMatchObject({ type: 'DATA_SMS', port: 8200 });
  });

  it('reassembles parts that arrive out of order into one message', async () => {
    const { inbox, received, service } = await harness();
    await service.receive('dev1', 1, textSms('C', '+1', [7, 3, 3]));
    await service.receive('dev1', 1, textSms('A', '+1', [7, 3, 1]));
    expect(inbox.all()).toHaveLength(0);
    await service.receive('dev1', 1, textSms('B', '+1', [7, 3, 2]));
    expect(inbox.all()).toMatchObject([{ content: 'ABC', type: 'SMS' }]);
    expect(inbox.all()[0]?.incomplete).toBeUndefined();
    expect(received).toHaveLength(1);
  });

  it('keeps interleaved multipart messages from different senders apart', async () => {
    const { inbox, service } = await harness();
    await service.receive('dev1', 1, textSms('a1', '+1', [5, 2, 1]));
    await service.receive('dev1', 1, textSms('b1', '+2', [5, 2, 1]));
    await service.receive('dev1', 1, textSms('b2', '+2', [5, 2, 2]));
    await service.receive('dev1', 1, textSms('a2', '+1', [5, 2, 2]));
    expect(
      inbox
        .all()
        .map((record) => `${record.sender}:${record.content}`)
        .sort(),
    ).toEqual(['+1:a1a2', '+2:b1b2']);
  });

  it('stores what arrived, marked incomplete, when a part is still missing after the timeout', async () => {
    const { clock, inbox, received, service } = await harness();
    await service.receive('dev1', 1, textSms('first ', '+1', [9, 3, 1]));
    await service.receive('dev1', 1, textSms('third', '+1', [9, 3, 3]));
    await clock.advance(23 * hour);
    expect(inbox.all()).toHaveLength(0);
    await clock.advance(1 * hour);
    expect(inbox.all()).toMatchObject([{ content: 'first third', incomplete: true }]);
    expect(received).toHaveLength(1);
  });

  it('keeps pending parts across a restart and completes the message afterwards', async () => {
    const clock = new ManualClock();
    const inbox = new MemoryInbox();
    const before = await harness({ clock, inbox });
    await before.service.receive('dev1', 1, textSms('one ', '+1', [3, 2, 1]));
    await before.service.stop();

    const after = await harness({ clock, inbox });
    await after.service.receive('dev1', 1, textSms('two', '+1', [3, 2, 2]));
    expect(inbox.all()).toMatchObject([{ content: 'one two' }]);
  });

  it('still times out a part kept before a restart', async () => {
    const clock = new ManualClock();
    const inbox = new MemoryInbox();
    const before = await harness({ clock, inbox });
    await before.service.receive('dev1', 1, textSms('lonely', '+1', [4, 2, 1]));
    await before.service.stop();
    await clock.advance(10 * hour);

    await harness({ clock, inbox });
    await clock.advance(14 * hour);
    expect(inbox.all()).toMatchObject([{ content: 'lonely', incomplete: true }]);
  });

  it('does not resolve receive before the part is durably saved', async () => {
    let releaseSave: () => void = () => undefined;
    const saved: PendingGroup[][] = [];
    const store: PendingPartsStore = {
      load: async () => [],
      save: (groups) =>
        new Promise((resolve) => {
          releaseSave = () => {
            saved.push(structuredClone(groups));
            resolve();
          };
        }),
    };
    const { service } = await harness({ store });
    let resolved = false;
    const pending = service.receive('dev1', 1, textSms('x', '+1', [1, 2, 1])).then(() => {
      resolved = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(resolved).toBe(false);
    releaseSave();
    await pending;
    expect(resolved).toBe(true);
    expect(saved[0]?.[0]?.parts).toHaveLength(1);
  });

  it('ignores the last part of an already stored message when the modem hands it over again', async () => {
    const { clock, inbox, received, service } = await harness();
    await service.receive('dev1', 1, textSms('p1', '+1', [2, 2, 1]));
    await service.receive('dev1', 1, textSms('p2', '+1', [2, 2, 2]));
    await service.receive('dev1', 1, textSms('p2', '+1', [2, 2, 2]));
    await clock.advance(25 * hour);
    expect(inbox.all()).toHaveLength(1);
    expect(received).toHaveLength(1);
  });
});
