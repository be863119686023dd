import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { audienceHears, type IncomingAudience } from '../../server/contract/domain/incoming.js';
import type { MessageRecord } from '../../server/contract/domain/message.js';
import { silentLogger } from '../../server/logging/logger.js';
import { EventBus } from '../../server/services/events/eventBus.js';
import { Outbox } from '../../server/services/outbox/outbox.js';
import { type IncomingRule, reachesTarget } from '../../server/services/webhooks/webhookAudience.js';
import type { WebhookTarget } from '../../server/services/webhooks/webhookDelivery.js';
import { WebhookDispatcher } from '../../server/services/webhooks/webhookDispatcher.js';
import { MemoryJobStore } from '../support/memoryJobStore.js';
import { pollUntil } from '../support/pollUntil.js';

/**
 * An app's webhooks hear only its own messages' events, incoming messages as its rule
 * says, and the gateway's own events; the default app's hear everything, as before apps.
 */
const hook = (id: string, event: string, appId?: string): WebhookTarget => ({
  id,
  url: 'https://127.0.0.1:9/hook',
  event,
  ...(appId === undefined ? {} : { appId }),
});

describe('which webhooks hear an event', () => {
  // The clinic hears modem B, and SIM 2 of modem C.
  const clinicRule: IncomingAudience = {
    kind: 'devices',
    targets: [{ deviceId: 'modem-b' }, { deviceId: 'modem-c', simNumber: 2 }],
  };
  const onlyModemB: IncomingRule = (appId, origin) => appId !== 'clinic' || audienceHears(clinicRule, origin);
  it.each([
    ['the default app hears another app’s message', hook('d', 'sms:sent'), { owner: 'shop' }, true],
    ['an app hears its own message', hook('s', 'sms:sent', 'shop'), { owner: 'shop' }, true],
    ['an app never hears another app’s message', hook('c', 'sms:sent', 'clinic'), { owner: 'shop' }, false],
    [
      'an app never hears the default app’s message',
      hook('c', 'sms:sent', 'clinic'),
      { owner: 'default' },
      false,
    ],
    ['an incoming message by the app’s rule: other modem', hook('c', 'sms:received', 'clinic'), {}, false],
    [
      'an incoming message by the app’s rule: its modem',
      hook('c', 'sms:received', 'clinic'),
      { deviceId: 'modem-b' },
      true,
    ],
    ['a batch of another modem’s messages', hook('c', 'sms:batch:received', 'clinic'), {}, false],
    [
      'a batch of its modem’s messages',
      hook('c', 'sms:batch:received', 'clinic'),
      { deviceId: 'modem-b' },
      true,
    ],
    [
      'an incoming message by the app’s rule: its SIM slot',
      hook('c', 'sms:received', 'clinic'),
      { deviceId: 'modem-c', simNumber: 2 },
      true,
    ],
    [
      'an incoming message by the app’s rule: another SIM slot of that modem',
      hook('c', 'sms:received', 'clinic'),
      { deviceId: 'modem-c', simNumber: 1 },
      false,
    ],
    [
      'a batch of a modem it hears one SIM slot of',
      hook('c', 'sms:batch:received', 'clinic'),
      { deviceId: 'modem-c' },
      false,
    ],
    ['the gateway’s own events', hook('c', 'system:ping', 'clinic'), {}, true],
  ] as const)('%s', (_case, target, event, expected) => {
    const raised = { event: target.event as 'sms:sent', deviceId: 'modem-a', payload: {}, ...event };
    expect(reachesTarget(target, raised, onlyModemB)).toBe(expected);
  });

  it("asks an app's incoming rule with the app the message replies to, as recorded on arrival", () => {
    const asked: (string | undefined)[] = [];
    const rule: IncomingRule = (_appId, { repliesTo }) => {
      asked.push(repliesTo);
      return repliesTo === 'shop';
    };
    const received = (repliesTo?: string) => ({
      event: 'sms:received' as const,
      deviceId: 'modem-a',
      // The sender is not what decides: the app it replies to is recorded with the message.
      payload: { sender: '+15551234567' },
      ...(repliesTo === undefined ? {} : { repliesTo }),
    });
    const target = hook('s', 'sms:received', 'shop');
    expect(reachesTarget(target, received('shop'), rule)).toBe(true);
    expect(reachesTarget(target, received('clinic'), rule)).toBe(false);
    expect(reachesTarget(target, received(), rule)).toBe(false);
    expect(asked).toEqual(['shop', 'clinic', undefined]);
  });
});

const dispatchers: WebhookDispatcher[] = [];
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
});

function message(appId: string | undefined, state: 'Processed' | 'Sent'): MessageRecord {
  return {
    id: `msg-${appId ?? 'default'}`,
    deviceId: 'modem-a',
    ...(appId === undefined ? {} : { appId }),
    content: { kind: 'text', text: 'hello' },
    recipients: [{ phoneNumber: '+15551234567', state, updatedAt: Date.UTC(2026, 0, 1) }],
    withDeliveryReport: false,
    priority: 0,
    isEncrypted: false,
    createdAt: Date.UTC(2026, 0, 1),
    sequence: 1,
    states: {},
    state,
  };
}

describe('the dispatcher', () => {
  it("delivers a message's sms:sent to its app's webhook and the default app's, never another app's", async () => {
    const events = new EventBus();
    const outbox = new MemoryJobStore();
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const dispatcher = new WebhookDispatcher({
      outbox: new Outbox({ store: outbox, clock, logger: silentLogger }),
      targets: () => [
        hook('default-hook', 'sms:sent'),
        hook('shop-hook', 'sms:sent', 'shop'),
        hook('clinic-hook', 'sms:sent', 'clinic'),
      ],
      policy: () => ({ retryCount: 1, internetRequired: false, pingIntervalSeconds: null }),
      events,
      // Who receives is decided when the deliveries are stored; each answer is a plain 200.
      post: async () => ({ status: 200 }),
      clock,
      logger: silentLogger,
      health: async () => ({}),
    });
    dispatchers.push(dispatcher);
    await dispatcher.start();
    events.record('message:updated', {
      message: message('shop', 'Sent'),
      previous: message('shop', 'Processed'),
      previousState: 'Processed',
    });
    await pollUntil(() => outbox.records.size >= 2);
    const heard = () => [...outbox.records.values()].map((job) => job.lane).sort();
    expect(heard()).toEqual(['default-hook', 'shop-hook']);
  });
});
