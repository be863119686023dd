/**
 * Issue 6 acceptance: webhooks reach a real receiver on loopback although it refuses the first
 * two attempts of every delivery and the gateway restarts halfway through. Every event arrives,
 * signed, exactly once per event (receivers de-duplicate by delivery id, so a repeat under the
 * same id is fine; the same event under two ids is not).
 *
 * Retries back off 5 s then 10 s on the real clock (upstream's schedule), so an event's third
 * attempt comes about 15 s after its first: the suite takes about 45 s.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyWebhookSignature } from '../../server/contract/domain/webhookSignature.js';
import { type GatewayHarness, startGatewayHarness } from '../support/gatewayHarness.js';
import { startReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import {
  type ApiInboxEntry,
  type ApiMessage,
  listAllInbox,
  listAllMessages,
  waitForReadyModems,
} from './support/apiReads.js';
import { inParallel, plannedIncoming } from './support/trafficPlan.js';

const SEND_COUNT = 500;
const INCOMING_COUNT = 100;
const SIGNING_KEY = 'acceptance-signing-key-6';
const FAILING_ATTEMPTS = 2;
const EVENTS = ['sms:sent', 'sms:delivered', 'sms:failed', 'sms:received'] as const;

interface Envelope {
  id: string;
  webhookId: string;
  event: string;
  deviceId: string;
  payload: { messageId?: string; phoneNumber?: string; message?: string };
}

interface Outcome {
  messages: ApiMessage[];
  inbox: ApiInboxEntry[];
  /** Every request the receiver got, parsed, with whether its signature checked out. */
  requests: { envelope: Envelope; signed: boolean; status: number }[];
  /** Gateway stop + start on the same data directory. */
  restartSeconds: number;
  seconds: number;
}

describe('webhooks under a failing receiver and a gateway restart', () => {
  let harness: GatewayHarness;
  let receiver: WebhookReceiver;
  let outcome: Outcome;

  beforeAll(async () => {
    receiver = await startReceiver();
    harness = await startGatewayHarness({
      ptyModems: 2,
      ptyModemOptions: () => ({ statusReportDelayMs: 300 }),
    });
    outcome = await runScenario(harness, receiver);
  }, 300_000);

  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  it('signs every request with the signing key over the body and X-Timestamp', () => {
    expect(outcome.requests.length).toBeGreaterThan(0);
    expect(outcome.requests.filter((request) => !request.signed)).toEqual([]);
  });

  it('delivers one event per message state change and per incoming message, none lost', () => {
    const expected = expectedEvents(outcome.messages, outcome.inbox);
    expect(outcome.messages).toHaveLength(SEND_COUNT);
    expect(outcome.inbox).toHaveLength(INCOMING_COUNT);

    const delivered = new Set(
      outcome.requests
        .filter((request) => request.status === 200)
        .map(({ envelope }) => `${envelope.event}/${envelope.payload.messageId}`),
    );
    expect([...expected].filter((key) => !delivered.has(key))).toEqual([]);
    expect([...delivered].filter((key) => !expected.has(key))).toEqual([]);
  });

  it('never publishes the same event twice under different delivery ids', () => {
    const idsByEvent = new Map<string, Set<string>>();
    for (const { envelope } of outcome.requests) {
      const key = `${envelope.event}/${envelope.payload.messageId}`;
      idsByEvent.set(key, (idsByEvent.get(key) ?? new Set()).add(envelope.id));
    }
    expect([...idsByEvent].filter(([, ids]) => ids.size > 1).map(([key]) => key)).toEqual([]);
  });

  it('retries every delivery past the two refusals, with the body unchanged', () => {
    const attempts = new Map<string, Envelope[]>();
    for (const { envelope } of outcome.requests) {
      attempts.set(envelope.id, [...(attempts.get(envelope.id) ?? []), envelope]);
    }
    for (const [id, tries] of attempts) {
      expect(tries.length, `attempts of delivery ${id}`).toBeGreaterThanOrEqual(FAILING_ATTEMPTS + 1);
      expect(new Set(tries.map((envelope) => JSON.stringify(envelope))).size).toBe(1);
    }
    console.info(
      `webhooks acceptance: ${attempts.size} deliveries, ${outcome.requests.length} requests, ` +
        `restart ${outcome.restartSeconds} s, run ${outcome.seconds} s`,
    );
  });
});

async function runScenario(harness: GatewayHarness, receiver: WebhookReceiver): Promise<Outcome> {
  const startedAt = Date.now();
  const { api } = harness;
  const attemptsById = new Map<string, number>();
  const statuses: number[] = [];
  receiver.respondWith((request, index) => {
    const id = (JSON.parse(request.body) as Envelope).id;
    const attempt = (attemptsById.get(id) ?? 0) + 1;
    attemptsById.set(id, attempt);
    statuses[index] = attempt <= FAILING_ATTEMPTS ? 500 : 200;
    return statuses[index];
  });
  await waitForReadyModems(api, 2);
  for (const event of EVENTS) {
    const response = await api.post('/webhooks', { url: receiver.url, event });
    if (response.status >= 300)
      throw new Error(`POST /webhooks answered ${response.status}: ${response.text}`);
  }
  const settings = await api.patch('/settings', {
    webhooks: { retry_count: 3, signing_key: SIGNING_KEY },
  });
  if (settings.status !== 200)
    throw new Error(`PATCH /settings answered ${settings.status}: ${settings.text}`);

  const incoming = Array.from({ length: INCOMING_COUNT }, (_unused, index) =>
    plannedIncoming(index, '+44770093'),
  );
  const reportRequested = new Set<string>();
  const sendFrom = async (first: number, count: number) =>
    inParallel(
      Array.from({ length: count }, (_unused, offset) => first + offset),
      8,
      async (index) => {
        const phoneNumber = `+44770094${String(index).padStart(4, '0')}`;
        if (index % 5 === 0) reportRequested.add(phoneNumber);
        const response = await api.post('/messages', {
          textMessage: { text: `webhook run #${index}` },
          phoneNumbers: [phoneNumber],
          withDeliveryReport: reportRequested.has(phoneNumber),
        });
        if (response.status !== 202) throw new Error(`POST /messages answered ${response.status}`);
      },
    );
  const injectFrom = async (first: number, count: number) => {
    for (let index = first; index < first + count; index++) {
      const message = incoming[index];
      if (!message) continue;
      harness
        .ptyModem(index % 2)
        .injectIncoming(
          { sender: message.sender, text: message.text },
          message.partOrder ? { partOrder: message.partOrder } : {},
        );
      // A SIM holds about 30 messages: let the gateway keep up.
      await waitForInboxTotal(harness, index - 3);
    }
  };

  // First half, then a restart while sends, reports and retries are all in progress.
  await Promise.all([sendFrom(0, SEND_COUNT / 2), injectFrom(0, INCOMING_COUNT / 2)]);
  const restartBegan = Date.now();
  await harness.restart();
  const restartSeconds = (Date.now() - restartBegan) / 1000;
  await waitForReadyModems(api, 2);
  await Promise.all([
    sendFrom(SEND_COUNT / 2, SEND_COUNT / 2),
    injectFrom(INCOMING_COUNT / 2, INCOMING_COUNT / 2),
  ]);

  const messages = await vi.waitFor(
    async () => {
      const all = await listAllMessages(api);
      const open = all.filter(
        (message) =>
          message.state === 'Pending' ||
          message.state === 'Processed' ||
          (message.state === 'Sent' && reportRequested.has(message.recipients[0]?.phoneNumber ?? '')),
      );
      if (open.length > 0) throw new Error(`${open.length} messages still in progress`);
      return all;
    },
    // A bound for a stuck queue, not a speed: a loaded 2-core machine drains it far slower.
    { timeout: 120_000, interval: 500 },
  );
  const inbox = await vi.waitFor(
    async () => {
      const entries = await listAllInbox(api);
      if (entries.length < INCOMING_COUNT) throw new Error(`${entries.length} incoming stored`);
      return entries;
    },
    { timeout: 60_000, interval: 200 },
  );
  // The third attempt of the last events comes about 15 s after their first.
  const expected = expectedEvents(messages, inbox);
  await vi
    .waitFor(
      () => {
        const delivered = deliveredEvents(receiver, statuses);
        const missing = [...expected].filter((key) => !delivered.has(key));
        if (missing.length > 0) throw new Error(`${missing.length} events not delivered yet`);
      },
      { timeout: 45_000, interval: 500 },
    )
    .catch(() => undefined); // The assertions name what is missing.

  const requests = receiver.requests.map((request, index) => {
    const timestamp = String(request.headers['x-timestamp'] ?? '');
    const signature = String(request.headers['x-signature'] ?? '');
    return {
      envelope: JSON.parse(request.body) as Envelope,
      signed: verifyWebhookSignature(request.body, timestamp, signature, SIGNING_KEY),
      status: statuses[index] ?? 0,
    };
  });
  return { messages, inbox, requests, restartSeconds, seconds: (Date.now() - startedAt) / 1000 };
}

async function waitForInboxTotal(harness: GatewayHarness, count: number): Promise<void> {
  if (count <= 0) return;
  await vi.waitFor(
    async () => {
      const response = await harness.api.get('/inbox?limit=1');
      const stored = Number(response.headers.get('x-total-count'));
      if (stored < count) throw new Error(`${stored} of ${count} incoming stored`);
    },
    { timeout: 20_000, interval: 25 },
  );
}

/** "event/messageId" of every event the final states and the inbox call for. */
function expectedEvents(messages: readonly ApiMessage[], inbox: readonly ApiInboxEntry[]): Set<string> {
  const expected = new Set<string>();
  for (const message of messages) {
    if (message.states.Sent) expected.add(`sms:sent/${message.id}`);
    if (message.states.Delivered) expected.add(`sms:delivered/${message.id}`);
    if (message.states.Failed) expected.add(`sms:failed/${message.id}`);
  }
  for (const entry of inbox) expected.add(`sms:received/${entry.id}`);
  return expected;
}

/** "event/messageId" of every request the receiver answered 200. */
function deliveredEvents(receiver: WebhookReceiver, statuses: readonly number[]): Set<string> {
  const delivered = new Set<string>();
  for (const [index, request] of receiver.requests.entries()) {
    if (statuses[index] !== 200) continue;
    const envelope = JSON.parse(request.body) as Envelope;
    delivered.add(`${envelope.event}/${envelope.payload.messageId}`);
  }
  return delivered;
}
