import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { Caller } from '../../server/contract/domain/caller.js';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { toMessageView } from '../../server/contract/domain/messageView.js';
import type { MessageRequest } from '../../server/contract/schemas/messageSchemas.js';
import { ErrorCode, isGatewayError } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import type { AppRecord } from '../../server/services/auth/appDirectory.js';
import { createAppQuotas } from '../../server/services/auth/appQuotas.js';
import { EventBus } from '../../server/services/events/eventBus.js';
import { MessageLifecycle } from '../../server/services/messages/messageLifecycle.js';
import { MessageService } from '../../server/services/messages/messageService.js';
import { openStorage, type Storage } from '../../server/store/storage.js';
import { deviceInfo, InMemoryDeviceDirectory } from '../support/httpHarness.js';

let dataDir: string;
let storage: Storage;
let clock: ManualClock;
const events = new EventBus();

const owner: Caller = { kind: 'person', id: 'owner' };
const shop: Caller = { kind: 'app', appId: 'shop' };
const other: Caller = { kind: 'app', appId: 'other' };

/** `shop` may send 5 SMS a day; `other` has no quota. */
const shopRecord: AppRecord = {
  id: 'shop',
  name: 'shop',
  createdAt: 0,
  createdBy: 'owner',
  quota: { perDay: 5, resetAt: '00:00', timeZone: 'UTC' },
};
const quotas = () =>
  createAppQuotas({
    apps: { get: (id) => (id === 'shop' ? shopRecord : undefined) },
    clock,
    countSince: (appId, since) => storage.messages.recipientsOfAppSince(appId, since),
  });

function service(
  options: { maxPendingMessages?: number; onEnqueued?: (message: MessageRecord) => void } = {},
): MessageService {
  const devices = new InMemoryDeviceDirectory();
  devices.add(deviceInfo('modem-1', {}, clock.now()));
  return new MessageService(
    {
      repository: storage.messages,
      lifecycle: new MessageLifecycle(storage.messages, events, clock, silentLogger),
      devices,
      events,
      clock,
      logger: silentLogger,
      scheduler: { enqueued: options.onEnqueued ?? (() => {}), waitOf: () => undefined },
      quotas: quotas(),
    },
    { maxPendingMessages: options.maxPendingMessages ?? 10 },
  );
}

const request = (message: Partial<MessageRequest> = {}) => ({
  message: { textMessage: { text: 'hi' }, phoneNumbers: ['+15551234567'], ...message } as MessageRequest,
  skipPhoneValidation: false,
  deviceActiveWithinHours: 0,
});

async function codeOf(promise: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (isGatewayError(error)) return error.code;
    throw error;
  }
}

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  dataDir = await mkdtemp(join(tmpdir(), 'sms-gateway-messages-'));
  storage = await openStorage({ dataDir, clock, logger: silentLogger });
});
afterEach(async () => {
  await storage.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('MessageService', () => {
  it('tells the scheduler in the turn it writes a message, and observers only once it is durable', async () => {
    const order: string[] = [];
    const stop = events.on('message:enqueued', () => order.push('event'));
    const messages = service({ onEnqueued: () => order.push('scheduler') });
    const durable = vi.spyOn(storage.sqlite.commits, 'flush');
    const enqueued = messages.enqueue(request({ id: 'm' }), owner);
    expect(order).toEqual(['scheduler']);
    await enqueued;
    stop();
    expect(order).toEqual(['scheduler', 'event']);
    expect(durable).toHaveBeenCalledTimes(1);
  });

  it("lets the scheduler's hand-over in that turn share the insert's commit, announced after it", async () => {
    const lifecycle = new MessageLifecycle(storage.messages, events, clock, silentLogger);
    const order: string[] = [];
    const stops = [
      events.on('message:enqueued', () => order.push('enqueued')),
      events.on('message:updated', ({ message }) => order.push(`updated:${message.state}`)),
    ];
    let processed: Promise<unknown> | undefined;
    // What the scheduler does for an idle modem: a scan in a microtask of the same turn.
    const messages = service({
      onEnqueued: (message) =>
        queueMicrotask(() => {
          processed = lifecycle.markProcessed(message.id, 'modem-1');
        }),
    });
    const commits = vi.spyOn(storage.sqlite.commits, 'flush');
    await messages.enqueue(request({ id: 'm' }), owner);
    await processed;
    for (const stop of stops) stop();
    // One commit (one fsync) for both writes; observers still hear "queued" first.
    expect(commits).toHaveBeenCalledTimes(1);
    expect(order).toEqual(['enqueued', 'updated:Processed']);
    expect(storage.messages.get('m')?.state).toBe('Processed');
  });

  it('continues the sequence after a restart instead of starting again at 1', async () => {
    await service().enqueue(request({ id: 'before' }), owner);
    const before = storage.messages.get('before')?.sequence ?? 0;
    await storage.close();
    storage = await openStorage({ dataDir, clock, logger: silentLogger });
    await service().enqueue(request({ id: 'after' }), owner);
    expect(storage.messages.get('after')?.sequence).toBeGreaterThan(before);
  });

  it('refuses with stable codes: Conflict, NoDeviceAvailable, QueueFull, ValidationFailed', async () => {
    const messages = service({ maxPendingMessages: 1 });
    expect(await codeOf(messages.enqueue(request({ id: 'one' }), owner))).toBe('ok');
    expect(await codeOf(messages.enqueue(request({ id: 'one' }), owner))).toBe(ErrorCode.Conflict);
    expect(await codeOf(messages.enqueue(request({ id: 'two', deviceId: 'ghost' }), owner))).toBe(
      ErrorCode.NoDeviceAvailable,
    );
    expect(await codeOf(messages.enqueue(request({ id: 'two' }), owner))).toBe(ErrorCode.QueueFull);
    expect(await codeOf(messages.enqueue(request({ id: 'three', validUntil: clock.now() }), owner))).toBe(
      ErrorCode.ValidationFailed,
    );
    expect(storage.messages.count()).toBe(1);
  });

  it('frees queue room when a pending message is cancelled', async () => {
    const messages = service({ maxPendingMessages: 1 });
    await messages.enqueue(request({ id: 'first' }), owner);
    await messages.cancel('first', owner);
    expect(await codeOf(messages.enqueue(request({ id: 'second' }), owner))).toBe('ok');
  });

  it("counts an app's quota per recipient, over single and batched calls, and across a restart", async () => {
    const messages = service();
    const three = ['+15551234561', '+15551234562', '+15551234563'];
    await messages.enqueue(request({ id: 'a', phoneNumbers: three }), shop);
    expect(await codeOf(messages.enqueue(request({ id: 'b', phoneNumbers: three }), shop))).toBe(
      ErrorCode.QuotaExceeded,
    );
    // Refused whole: nothing of it was stored or counted, so two still fit.
    expect(() => messages.prepareAll([request({ id: 'c', phoneNumbers: three })], shop)).toThrow(/quota/);
    await messages.enqueuePrepared(
      messages.prepareAll([request({ id: 'd', phoneNumbers: three.slice(0, 2) })], shop),
    );
    expect(await codeOf(messages.enqueue(request({ id: 'e' }), shop))).toBe(ErrorCode.QuotaExceeded);
    // The person's and the other app's sends are not the shop's.
    expect(await codeOf(messages.enqueue(request({ id: 'f', phoneNumbers: three }), owner))).toBe('ok');
    expect(await codeOf(messages.enqueue(request({ id: 'g', phoneNumbers: three }), other))).toBe('ok');
    // A new service reads the day's count back from the stored messages.
    expect(await codeOf(service().enqueue(request({ id: 'h' }), shop))).toBe(ErrorCode.QuotaExceeded);
    await clock.advance(24 * 3_600_000);
    expect(await codeOf(service().enqueue(request({ id: 'i' }), shop))).toBe('ok');
  });

  it("hides an app's messages from every other app, but not from people", async () => {
    const messages = service();
    await messages.enqueue(request({ id: 'mine' }), shop);
    expect(() => messages.get('mine', other)).toThrow(expect.objectContaining({ code: ErrorCode.NotFound }));
    expect(await codeOf(messages.cancel('mine', other))).toBe(ErrorCode.NotFound);
    expect(messages.get('mine', owner).appId).toBe('shop');
    expect((await messages.list({ limit: 10, offset: 0 }, { withContent: false }, other)).total).toBe(0);
    expect((await messages.list({ limit: 10, offset: 0 }, { withContent: false }, shop)).total).toBe(1);
    expect((await messages.cancel('mine', shop)).state).toBe('Cancelled');
  });

  it('generates upstream-shaped ids: 21 URL-safe characters, all different', async () => {
    const messages = service({ maxPendingMessages: 50 });
    const ids = new Set<string>();
    for (let index = 0; index < 20; index++) ids.add((await messages.enqueue(request(), owner)).id);
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{21}$/);
  });
});

describe('toMessageView', () => {
  it('formats state times with milliseconds and an offset, and leaves content out on request', async () => {
    const record = await service().enqueue(request({ id: 'v', textMessage: { text: 'secret' } }), owner);
    const view = toMessageView(record, false, 'only-device');
    expect(view.states.Pending).toMatch(/^2026-01-01T\d\d:00:00\.000[+-]\d\d:\d\d$/);
    expect(Date.parse(view.states.Pending ?? '')).toBe(clock.now());
    expect(JSON.stringify(view)).not.toContain('secret');
    expect(toMessageView(record, true, 'only-device').textMessage).toEqual({ text: 'secret' });
  });

  it('names the requested device of a message no modem has taken, else the stand-in, else none', async () => {
    const unbound = await service().enqueue(request({ id: 'unbound' }), owner);
    expect(toMessageView(unbound, false, 'only-device').deviceId).toBe('only-device');
    expect(toMessageView(unbound, false, undefined)).not.toHaveProperty('deviceId');
    expect(toMessageView({ ...unbound, requestedDeviceId: 'modem-a' }, false, 'only-device').deviceId).toBe(
      'modem-a',
    );
    expect(
      toMessageView({ ...unbound, deviceId: 'modem-b', requestedDeviceId: 'modem-a' }, false, 'only-device')
        .deviceId,
    ).toBe('modem-b');
  });
});
