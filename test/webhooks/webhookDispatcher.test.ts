import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../server/clock/clock.js';
import { ManualClock } from '../../server/clock/manualClock.js';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { verifyWebhookSignature } from '../../server/contract/domain/webhookSignature.js';
import { createLogger, type LogRecord, silentLogger } from '../../server/logging/logger.js';
import { EventBus } from '../../server/services/events/eventBus.js';
import { Outbox } from '../../server/services/outbox/outbox.js';
import type { WebhookTarget } from '../../server/services/webhooks/webhookDelivery.js';
import { WebhookDispatcher, type WebhookPolicy } from '../../server/services/webhooks/webhookDispatcher.js';
import { createNodePoster } from '../../server/services/webhooks/webhookPoster.js';
import { MemoryJobStore } from '../support/memoryJobStore.js';
import { createTestCertificates, startReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

const signingKey = 'test-signing-key';
const receivers: WebhookReceiver[] = [];
const dispatchers: { stop(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(options?: Parameters<typeof startReceiver>[0]) {
  const started = await startReceiver(options);
  receivers.push(started);
  return started;
}

interface Setup {
  targets: WebhookTarget[];
  clock?: ManualClock | typeof systemClock;
  outbox?: MemoryJobStore;
  policy?: Partial<WebhookPolicy>;
  ca?: string;
  isOnline?: () => boolean;
  logs?: LogRecord[];
}

async function startDispatcher(setup: Setup) {
  const events = new EventBus();
  const outbox = setup.outbox ?? new MemoryJobStore();
  const logger = setup.logs
    ? createLogger({ level: 'DEBUG', sinks: [(record) => setup.logs?.push(record)] })
    : silentLogger;
  const clock = setup.clock ?? systemClock;
  const jobs = new Outbox({ store: outbox, clock, logger });
  const dispatcher = new WebhookDispatcher({
    outbox: jobs,
    targets: () => setup.targets,
    policy: () => ({
      retryCount: 1,
      signingKey,
      internetRequired: false,
      pingIntervalSeconds: null,
      ...setup.policy,
    }),
    events,
    post: createNodePoster({ ca: setup.ca }),
    clock,
    logger,
    health: async () => ({ status: 'pass' }),
    isOnline: setup.isOnline,
    timeouts: { connectTimeoutMs: 2_000, totalTimeoutMs: 2_000 },
  });
  dispatchers.push({
    stop: async () => {
      await dispatcher.stop();
      await jobs.stop();
    },
  });
  await dispatcher.start();
  return { dispatcher, events, outbox };
}

function sentMessage(state: 'Processed' | 'Sent'): MessageRecord {
  return {
    id: 'msg-1',
    deviceId: 'modem-a',
    content: { kind: 'text', text: 'hello' },
    recipients: [
      {
        phoneNumber: '+15551234567',
        state,
        parts: state === 'Sent' ? [{ reference: 7 }, { reference: 8 }] : undefined,
        updatedAt: Date.UTC(2026, 0, 1),
      },
    ],
    withDeliveryReport: true,
    priority: 0,
    isEncrypted: false,
    createdAt: Date.UTC(2026, 0, 1),
    sequence: 1,
    states: {},
    state,
  };
}

describe('webhook dispatcher', () => {
  it('posts a signed envelope that the receiver verifies with the signing key', async () => {
    const hook = await receiver();
    const { events } = await startDispatcher({
      targets: [{ id: 'wh1', url: hook.url, event: 'sms:received' }],
    });
    events.record('message:received', {
      id: 'in-1',
      type: 'SMS',
      deviceId: 'modem-a',
      simNumber: 1,
      sender: '+15557654321',
      content: 'Hi there',
      receivedAt: Date.UTC(2026, 0, 1, 12),
    });
    await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
    const [request] = hook.requests;
    if (!request) throw new Error('no request');
    const timestamp = String(request.headers['x-timestamp']);
    expect(
      verifyWebhookSignature(request.body, timestamp, String(request.headers['x-signature']), signingKey),
    ).toBe(true);
    expect(
      verifyWebhookSignature(request.body, timestamp, String(request.headers['x-signature']), 'other-key'),
    ).toBe(false);
    const envelope = JSON.parse(request.body);
    expect(envelope).toMatchObject({
      webhookId: 'wh1',
      event: 'sms:received',
      deviceId: 'modem-a',
      payload: { messageId: 'in-1', message: 'Hi there', phoneNumber: '+15557654321', simNumber: 1 },
    });
    expect(envelope.payload.receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
  });

  it('sends sms:received for a stored message replayed by an inbox export', async () => {
    const hook = await receiver();
    const { events } = await startDispatcher({
      targets: [{ id: 'wh1', url: hook.url, event: 'sms:received' }],
    });
    events.emit('inbox:replayed', {
      id: 'in-old',
      type: 'SMS',
      deviceId: 'modem-a',
      simNumber: 1,
      sender: '+15557654321',
      content: 'from last week',
      receivedAt: Date.UTC(2026, 0, 1),
    });
    await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
    expect(JSON.parse(hook.requests[0]?.body ?? '{}').payload).toMatchObject({
      messageId: 'in-old',
      message: 'from last week',
    });
  });

  it('sends sms:sent with the parts count when a recipient becomes Sent', async () => {
    const hook = await receiver();
    const { events } = await startDispatcher({
      targets: [{ id: 'wh-sent', url: hook.url, event: 'sms:sent' }],
    });
    const previous = sentMessage('Processed');
    events.record('message:updated', { message: sentMessage('Sent'), previous, previousState: 'Processed' });
    await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
    expect(JSON.parse(hook.requests[0]?.body ?? '{}').payload).toMatchObject({
      messageId: 'msg-1',
      phoneNumber: '+15551234567',
      partsCount: 2,
    });
  });

  it('retries after 5 s and then 10 s with the same delivery id until the receiver accepts', async () => {
    const clock = new ManualClock();
    const hook = await receiver();
    hook.respondWith((_request, index) => (index < 2 ? 500 : 204));
    const { dispatcher } = await startDispatcher({
      clock,
      targets: [{ id: 'wh1', url: hook.url, event: 'sms:cancelled' }],
      policy: { retryCount: 3 },
    });
    const [delivery] = await dispatcher.publish({
      event: 'sms:cancelled',
      deviceId: 'modem-a',
      payload: { messageId: 'm' },
    });
    await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
    await vi.waitFor(() => expect(dispatcher.list({ limit: 1 })[0]?.attemptCount).toBe(1));
    await clock.advance(4_999);
    expect(hook.requests).toHaveLength(1);
    await clock.advance(1);
    await vi.waitFor(() => expect(hook.requests).toHaveLength(2));
    await vi.waitFor(() => expect(dispatcher.list({ limit: 1 })[0]?.attemptCount).toBe(2));
    await clock.advance(9_999);
    expect(hook.requests).toHaveLength(2);
    await clock.advance(1);
    await vi.waitFor(() => expect(dispatcher.list({ limit: 1 })[0]?.state).toBe('delivered'));
    const ids = hook.requests.map((request) => JSON.parse(request.body).id);
    expect(new Set(ids)).toEqual(new Set([delivery?.id]));
  });

  it('gives up after retry_count retries, marks the delivery failed and logs an error', async () => {
    const clock = new ManualClock();
    const logs: LogRecord[] = [];
    const hook = await receiver();
    hook.respondWith(() => 503);
    const { dispatcher } = await startDispatcher({
      clock,
      logs,
      targets: [{ id: 'wh1', url: hook.url, event: 'sms:failed' }],
      policy: { retryCount: 1 },
    });
    await dispatcher.publish({ event: 'sms:failed', deviceId: 'modem-a', payload: {} });
    await vi.waitFor(() => expect(dispatcher.list({ limit: 1 })[0]?.attemptCount).toBe(1));
    await clock.advance(5_000);
    await vi.waitFor(() => expect(dispatcher.list({ limit: 1 })[0]?.state).toBe('failed'));
    expect(hook.requests).toHaveLength(2);
    expect(dispatcher.list({ limit: 1 })[0]?.lastError).toBe('receiver answered HTTP 503');
    expect(logs.some((log) => log.priority === 'ERROR' && log.message.includes('failed for good'))).toBe(
      true,
    );
    await clock.advance(60 * 60_000);
    expect(hook.requests).toHaveLength(2);
  });

  it('does not follow redirects: a 302 counts as a failed attempt', async () => {
    const hook = await receiver();
    hook.respondWith(() => 302);
    const { dispatcher } = await startDispatcher({
      targets: [{ id: 'wh1', url: hook.url, event: 'sms:sent' }],
      policy: { retryCount: 0 },
    });
    await dispatcher.publish({ event: 'sms:sent', deviceId: 'a', payload: {} });
    await vi.waitFor(() => expect(dispatcher.list({ limit: 1 })[0]?.state).toBe('failed'));
    expect(dispatcher.list({ limit: 1 })[0]?.attempts[0]?.status).toBe(302);
  });

  it('resumes pending deliveries after a restart and keeps their ids', async () => {
    const clock = new ManualClock();
    const outbox = new MemoryJobStore();
    const hook = await receiver();
    hook.respondWith(() => 500);
    const targets = [{ id: 'wh1', url: hook.url, event: 'sms:delivered' }];
    const first = await startDispatcher({ clock, outbox, targets, policy: { retryCount: 5 } });
    const [delivery] = await first.dispatcher.publish({
      event: 'sms:delivered',
      deviceId: 'a',
      payload: { messageId: 'm1' },
    });
    await vi.waitFor(() => expect(outbox.get(delivery?.id ?? '')?.attemptCount).toBe(1));
    await first.dispatcher.stop();

    hook.respondWith(() => 200);
    const second = await startDispatcher({ clock, outbox, targets, policy: { retryCount: 5 } });
    await clock.advance(5_000);
    await vi.waitFor(() => expect(outbox.get(delivery?.id ?? '')?.state).toBe('delivered'));
    expect(hook.requests.map((request) => JSON.parse(request.body).id)).toEqual([delivery?.id, delivery?.id]);
    expect(second.dispatcher.status().pending).toBe(0);
  });

  it('keeps delivering to a healthy receiver while another one hangs', async () => {
    const slow = await receiver();
    slow.respondWith(() => new Promise<number>(() => {}));
    const fast = await receiver();
    const { dispatcher } = await startDispatcher({
      targets: [
        { id: 'slow', url: slow.url, event: 'sms:sent' },
        { id: 'fast', url: fast.url, event: 'sms:sent' },
      ],
      policy: { retryCount: 0 },
    });
    for (let index = 0; index < 20; index++)
      await dispatcher.publish({ event: 'sms:sent', deviceId: 'a', payload: { index } });
    await vi.waitFor(() => expect(fast.requests).toHaveLength(20), { timeout: 1_500 });
    expect(slow.requests.length).toBeLessThanOrEqual(4);
  });

  it('holds deliveries to remote receivers while offline, but not to loopback ones', async () => {
    const clock = new ManualClock();
    const hook = await receiver();
    let online = false;
    const { dispatcher } = await startDispatcher({
      clock,
      isOnline: () => online,
      policy: { internetRequired: true },
      targets: [
        { id: 'local', url: hook.url, event: 'sms:sent' },
        { id: 'remote', url: 'https://example.invalid/hook', event: 'sms:sent' },
      ],
    });
    await dispatcher.publish({ event: 'sms:sent', deviceId: 'a', payload: {} });
    await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
    const remote = () => dispatcher.list({ webhookId: 'remote', limit: 1 })[0];
    await vi.waitFor(() => expect(remote()?.lastError).toBe('waiting for a network connection'));
    expect(remote()?.attemptCount).toBe(0);
    online = true;
    await clock.advance(30_000);
    await vi.waitFor(() => expect(remote()?.attemptCount).toBe(1));
  });

  it('delivers over HTTPS to a receiver whose certificate comes from a trusted private CA', async () => {
    const tls = await createTestCertificates();
    const hook = await receiver({ tls: { key: tls.key, cert: tls.cert } });
    const { dispatcher } = await startDispatcher({
      ca: tls.ca,
      targets: [{ id: 'tls', url: hook.url, event: 'sms:sent' }],
    });
    await dispatcher.publish({ event: 'sms:sent', deviceId: 'a', payload: {} });
    await vi.waitFor(() => expect(dispatcher.list({ limit: 1 })[0]?.state).toBe('delivered'));
  });

  it('refuses a receiver whose certificate is not trusted', async () => {
    const tls = await createTestCertificates();
    const hook = await receiver({ tls: { key: tls.key, cert: tls.cert } });
    const { dispatcher } = await startDispatcher({
      targets: [{ id: 'tls', url: hook.url, event: 'sms:sent' }],
      policy: { retryCount: 0 },
    });
    await dispatcher.publish({ event: 'sms:sent', deviceId: 'a', payload: {} });
    await vi.waitFor(() => expect(dispatcher.list({ limit: 1 })[0]?.state).toBe('failed'));
    expect(hook.requests).toHaveLength(0);
  });

  it('delivers a burst of 1,000 events, each exactly once', async () => {
    const hook = await receiver();
    const { dispatcher } = await startDispatcher({
      targets: [{ id: 'burst', url: hook.url, event: 'sms:delivered' }],
    });
    await Promise.all(
      Array.from({ length: 1_000 }, (_unused, index) =>
        dispatcher.publish({ event: 'sms:delivered', deviceId: 'a', payload: { index } }),
      ),
    );
    await vi.waitFor(() => expect(dispatcher.status().pending).toBe(0), { timeout: 20_000 });
    const indexes = hook.requests.map((request) => JSON.parse(request.body).payload.index);
    expect(new Set(indexes).size).toBe(1_000);
    expect(indexes).toHaveLength(1_000);
  });

  it('only sends a device-filtered webhook the events of its device', async () => {
    const hook = await receiver();
    const { dispatcher } = await startDispatcher({
      targets: [{ id: 'only-b', url: hook.url, event: 'sms:sent', deviceId: 'modem-b' }],
    });
    await dispatcher.publish({ event: 'sms:sent', deviceId: 'modem-a', payload: { from: 'a' } });
    await dispatcher.publish({ event: 'sms:sent', deviceId: 'modem-b', payload: { from: 'b' } });
    await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
    expect(JSON.parse(hook.requests[0]?.body ?? '{}').payload).toEqual({ from: 'b' });
  });

  it('sends a test event of the webhook own kind to that webhook only', async () => {
    const hook = await receiver();
    const other = await receiver();
    const { dispatcher } = await startDispatcher({
      targets: [
        { id: 'a', url: hook.url, event: 'sms:received' },
        { id: 'b', url: other.url, event: 'sms:received' },
      ],
    });
    const delivery = await dispatcher.sendTest('a');
    expect(delivery?.event).toBe('sms:received');
    await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
    expect(other.requests).toHaveLength(0);
    expect(await dispatcher.sendTest('missing')).toBeUndefined();
  });

  it('sends system:ping with the health report every ping interval', async () => {
    const clock = new ManualClock();
    const hook = await receiver();
    await startDispatcher({
      clock,
      targets: [{ id: 'p', url: hook.url, event: 'system:ping' }],
      policy: { pingIntervalSeconds: 60 },
    });
    await clock.advance(60_000);
    await vi.waitFor(() => expect(hook.requests).toHaveLength(1));
    expect(JSON.parse(hook.requests[0]?.body ?? '{}').payload).toEqual({ health: { status: 'pass' } });
  });
});
