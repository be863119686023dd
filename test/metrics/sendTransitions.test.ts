import { describe, expect, it } from 'vitest';
import type { MessageRecord, MessageState } from '../../server/contract/domain/message.js';
import { type JobKind, JobKinds, type KindStatus } from '../../server/contract/domain/outboxJob.js';
import { EventBus } from '../../server/services/events/eventBus.js';
import { createGatewayMetrics } from '../../server/services/metrics/gatewayMetrics.js';

/** What the send counters make of each recipient's change (docs/metrics.md). */
const sources = {
  now: () => 0,
  messagesInState: () => 0,
  oldestWaitingSince: () => undefined,
  sending: () => 0,
  outbox: () =>
    Object.fromEntries(JobKinds.map((kind) => [kind, { pending: 0, givenUpLastHour: 0 }])) as Record<
      JobKind,
      KindStatus
    >,
  devices: () => [],
  planUse: () => [],
  sessions: () => ({ smtp: 0, smpp: 0 }),
};

function message(state: MessageState, updatedAt: number): MessageRecord {
  return {
    id: 'm1',
    deviceId: 'phone-a',
    content: { kind: 'text', text: 'hi' },
    recipients: [{ phoneNumber: '+15551230601', state, updatedAt }],
    withDeliveryReport: true,
    priority: 0,
    isEncrypted: false,
    createdAt: 0,
    sequence: 1,
    states: {},
    state,
  };
}

function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The metrics text after the recipient went through `steps` ([state, at] each, from Processed at 1 s). */
async function metricsAfter(steps: readonly (readonly [MessageState, number])[]): Promise<string> {
  const events = new EventBus();
  const metrics = createGatewayMetrics(sources, events);
  try {
    let previous = message('Processed', 1_000);
    for (const [state, at] of steps) {
      const next = message(state, at);
      events.emit('message:updated', { message: next, previous, previousState: previous.state });
      previous = next;
    }
    return await metrics.render();
  } finally {
    metrics.stop();
  }
}

describe('send transitions in the metrics', () => {
  it('count a recipient that went from Processed to Delivered at once as Sent too, with its latency', async () => {
    const text = await metricsAfter([['Delivered', 42_000]]);
    expect(value(text, 'sms_gateway_recipients_total{device="phone-a",state="Delivered"}')).toBe(1);
    expect(value(text, 'sms_gateway_recipients_total{device="phone-a",state="Sent"}')).toBe(1);
    expect(value(text, 'sms_gateway_sms_parts_sent_total{device="phone-a"}')).toBe(1);
    expect(value(text, 'sms_gateway_send_latency_seconds_count')).toBe(1);
    expect(value(text, 'sms_gateway_send_latency_seconds_sum')).toBe(42);
  });

  it('count Sent once for a recipient reported Sent, then Delivered', async () => {
    const text = await metricsAfter([
      ['Sent', 5_000],
      ['Delivered', 9_000],
    ]);
    expect(value(text, 'sms_gateway_recipients_total{device="phone-a",state="Sent"}')).toBe(1);
    expect(value(text, 'sms_gateway_send_latency_seconds_count')).toBe(1);
    expect(value(text, 'sms_gateway_send_latency_seconds_sum')).toBe(5);
  });
});
