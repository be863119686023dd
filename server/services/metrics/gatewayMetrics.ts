import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DeviceInfo } from '../../contract/domain/device.js';
import { type MessageRecord, type MessageState, MessageStates } from '../../contract/domain/message.js';
import { type JobKind, JobKinds, type KindStatus } from '../../contract/domain/outboxJob.js';
import type { EventBus } from '../events/eventBus.js';

/** One cap of one SIM's plan, with its use in the current period. */
export interface PlanUseSample {
  deviceId: string;
  sim: number;
  cap: string;
  used: number;
  limit: number;
}

/** What a scrape reads, each at the moment it is asked (nothing is copied in between). */
export interface MetricSources {
  now(): number;
  /** Stored messages in each state (kept counts, not a scan). */
  messagesInState(state: MessageState): number;
  /** When the message first in line was accepted (ms), while one waits. */
  oldestWaitingSince(): number | undefined;
  /** Messages handed to a modem and not yet answered. */
  sending(): number;
  outbox(): Record<JobKind, KindStatus>;
  devices(): DeviceInfo[];
  planUse(): PlanUseSample[];
  /** Open sessions of the e-mail and SMPP ways in (0 while one is off). */
  sessions(): { smtp: number; smpp: number };
}

export interface GatewayMetrics {
  /** The Prometheus text exposition format, version 0.0.4. */
  readonly contentType: string;
  render(): Promise<string>;
  stop(): void;
}

const prefix = 'sms_gateway_';

/**
 * The gateway's Prometheus metrics (docs/metrics.md), on a registry of its own so two gateways
 * in one process (tests) never share one. Counters count from this start, as Prometheus expects
 * of a process (`rate()` handles the restart); gauges are read from `sources` at each scrape;
 * prom-client's default metrics add the process's memory, CPU and event-loop lag from the first
 * scrape on.
 */
export function createGatewayMetrics(sources: MetricSources, events: EventBus): GatewayMetrics {
  const registry = new Registry();
  // prom-client's defaults start an event-loop monitor that runs for the life of the process:
  // only a gateway someone scrapes gets one.
  let defaultsCollected = false;

  const recipients = new Counter({
    name: `${prefix}recipients_total`,
    help: 'Recipients of outgoing messages that reached Sent, Delivered or Failed, by modem',
    labelNames: ['device', 'state'],
    registers: [registry],
  });
  const parts = new Counter({
    name: `${prefix}sms_parts_sent_total`,
    help: 'SMS parts the network accepted (a long message is several), by modem',
    labelNames: ['device'],
    registers: [registry],
  });
  const received = new Counter({
    name: `${prefix}messages_received_total`,
    help: 'Incoming messages stored, by modem',
    labelNames: ['device'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: `${prefix}send_latency_seconds`,
    help: 'From acceptance to the network taking the SMS (Sent): queue wait and sending',
    buckets: [1, 2, 5, 10, 30, 60, 120, 300, 900, 3600],
    registers: [registry],
  });

  const gauge = (name: string, help: string, labelNames: readonly string[], read: () => Samples) =>
    sampledGauge(registry, `${prefix}${name}`, help, labelNames, read);
  const ageSeconds = (since: number | undefined) =>
    since === undefined ? 0 : Math.max(0, (sources.now() - since) / 1000);

  gauge('messages', 'Stored outgoing messages, by state', ['state'], () =>
    MessageStates.map((state) => [{ state }, sources.messagesInState(state)]),
  );
  gauge(
    'queue_oldest_waiting_seconds',
    'How long the message first in line has waited since it was accepted (0: none waits)',
    [],
    () => [[{}, ageSeconds(sources.oldestWaitingSince())]],
  );
  gauge('queue_sending', 'Messages handed to a modem and not yet answered', [], () => [
    [{}, sources.sending()],
  ]);
  const byKind = (value: (status: KindStatus) => number) => (): Samples => {
    const status = sources.outbox();
    return JobKinds.map((kind) => [{ kind }, value(status[kind])]);
  };
  gauge(
    'outbox_pending',
    'Deliveries waiting in the outbox (webhook, mail, smpp, fleet-report)',
    ['kind'],
    byKind((status) => status.pending),
  );
  gauge(
    'outbox_given_up_last_hour',
    'Deliveries the outbox gave up in the last hour and has not sent again',
    ['kind'],
    byKind((status) => status.givenUpLastHour),
  );
  gauge(
    'outbox_oldest_pending_seconds',
    'How long the oldest waiting delivery has waited (0: none waits)',
    ['kind'],
    byKind((status) => ageSeconds(status.oldestPendingAt)),
  );
  gauge('modem_ready', 'Whether the modem can send now (1) or not (0)', ['device', 'name'], () =>
    sources
      .devices()
      .map((device) => [{ device: device.id, name: device.name }, device.modem.status === 'ready' ? 1 : 0]),
  );
  gauge(
    'modem_signal_dbm',
    "The modem's received signal strength (from +CSQ), where it reports one",
    ['device'],
    () =>
      sources.devices().flatMap((device) => {
        const dbm = device.modem.signal?.dbm;
        return dbm === undefined ? [] : [[{ device: device.id }, dbm] as const];
      }),
  );
  gauge(
    'modem_registration',
    'The network registration the modem reports (1 on the series of its current state)',
    ['device', 'registration'],
    () =>
      sources.devices().flatMap((device) => {
        const registration = device.modem.registration;
        return registration === undefined ? [] : [[{ device: device.id, registration }, 1] as const];
      }),
  );
  const byCap = (value: (use: PlanUseSample) => number) => (): Samples =>
    sources
      .planUse()
      .map((use) => [{ device: use.deviceId, sim: String(use.sim), cap: use.cap }, value(use)]);
  gauge(
    'sim_plan_used',
    "A SIM plan cap's use in its current period",
    ['device', 'sim', 'cap'],
    byCap((use) => use.used),
  );
  gauge(
    'sim_plan_limit',
    "A SIM plan cap's limit per period",
    ['device', 'sim', 'cap'],
    byCap((use) => use.limit),
  );
  gauge('sessions', 'Open sessions of the e-mail (smtp) and SMPP (smpp) ways in', ['way'], () => {
    const open = sources.sessions();
    return [
      [{ way: 'smtp' }, open.smtp],
      [{ way: 'smpp' }, open.smpp],
    ];
  });

  const stops = [
    events.on('message:updated', ({ message, previous }) =>
      countTransitions(message, previous, { recipients, parts, latency }),
    ),
    events.on('message:received', (incoming) => received.inc({ device: incoming.deviceId })),
  ];
  return {
    contentType: registry.contentType,
    render: () => {
      if (!defaultsCollected) {
        collectDefaultMetrics({ register: registry });
        defaultsCollected = true;
      }
      return registry.metrics();
    },
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}

const endStates = new Set<MessageState>(['Sent', 'Delivered', 'Failed']);

/**
 * Each recipient that changed into Sent, Delivered or Failed counts once, as webhooks raise it.
 * One that went from Processed to Delivered at once (a phone reporting late) passed Sent unseen:
 * it counts as Sent too, with its parts and its latency up to then.
 */
function countTransitions(
  message: MessageRecord,
  previous: MessageRecord,
  metrics: { recipients: Counter; parts: Counter; latency: Histogram },
): void {
  const device = message.deviceId ?? message.requestedDeviceId ?? '';
  for (const [index, recipient] of message.recipients.entries()) {
    const before = previous.recipients[index]?.state;
    if (recipient.state === before || !endStates.has(recipient.state)) continue;
    metrics.recipients.inc({ device, state: recipient.state });
    const passedSentUnseen = recipient.state === 'Delivered' && before !== 'Sent';
    if (passedSentUnseen) metrics.recipients.inc({ device, state: 'Sent' });
    if (recipient.state !== 'Sent' && !passedSentUnseen) continue;
    metrics.parts.inc({ device }, recipient.parts?.length ?? 1);
    const sentAt = recipient.updatedAt ?? message.createdAt;
    metrics.latency.observe(Math.max(0, (sentAt - message.createdAt) / 1000));
  }
}

type Samples = readonly (readonly [Record<string, string>, number])[];

/** A gauge whose series are read afresh at each scrape: a series no longer read goes. */
function sampledGauge(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly string[],
  read: () => Samples,
): void {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.set(labels, value);
    },
  });
}
