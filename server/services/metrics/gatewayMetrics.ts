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

  new Gauge({
    name: `${prefix}messages`,
    help: 'Stored outgoing messages, by state',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const state of MessageStates) this.set({ state }, sources.messagesInState(state));
    },
  });
  new Gauge({
    name: `${prefix}queue_oldest_waiting_seconds`,
    help: 'How long the message first in line has waited since it was accepted (0: none waits)',
    registers: [registry],
    collect() {
      const since = sources.oldestWaitingSince();
      this.set(since === undefined ? 0 : Math.max(0, (sources.now() - since) / 1000));
    },
  });
  new Gauge({
    name: `${prefix}queue_sending`,
    help: 'Messages handed to a modem and not yet answered',
    registers: [registry],
    collect() {
      this.set(sources.sending());
    },
  });
  outboxGauges(registry, sources);
  deviceGauges(registry, sources);
  new Gauge({
    name: `${prefix}sim_plan_used`,
    help: "A SIM plan cap's use in its current period",
    labelNames: ['device', 'sim', 'cap'],
    registers: [registry],
    collect() {
      this.reset();
      for (const use of sources.planUse())
        this.set({ device: use.deviceId, sim: String(use.sim), cap: use.cap }, use.used);
    },
  });
  new Gauge({
    name: `${prefix}sim_plan_limit`,
    help: "A SIM plan cap's limit per period",
    labelNames: ['device', 'sim', 'cap'],
    registers: [registry],
    collect() {
      this.reset();
      for (const use of sources.planUse())
        this.set({ device: use.deviceId, sim: String(use.sim), cap: use.cap }, use.limit);
    },
  });
  new Gauge({
    name: `${prefix}sessions`,
    help: 'Open sessions of the e-mail (smtp) and SMPP (smpp) ways in',
    labelNames: ['way'],
    registers: [registry],
    collect() {
      const open = sources.sessions();
      this.set({ way: 'smtp' }, open.smtp);
      this.set({ way: 'smpp' }, open.smpp);
    },
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

/** Each recipient that changed into Sent, Delivered or Failed counts once, as webhooks raise it. */
function countTransitions(
  message: MessageRecord,
  previous: MessageRecord,
  metrics: { recipients: Counter; parts: Counter; latency: Histogram },
): void {
  const device = message.deviceId ?? message.requestedDeviceId ?? '';
  for (const [index, recipient] of message.recipients.entries()) {
    if (recipient.state === previous.recipients[index]?.state || !endStates.has(recipient.state)) continue;
    metrics.recipients.inc({ device, state: recipient.state });
    if (recipient.state !== 'Sent') continue;
    metrics.parts.inc({ device }, recipient.parts?.length ?? 1);
    const sentAt = recipient.updatedAt ?? message.createdAt;
    metrics.latency.observe(Math.max(0, (sentAt - message.createdAt) / 1000));
  }
}

function outboxGauges(registry: Registry, sources: MetricSources): void {
  const labelNames = ['kind'];
  new Gauge({
    name: `${prefix}outbox_pending`,
    help: 'Deliveries waiting in the outbox (webhook, mail, smpp, fleet-report)',
    labelNames,
    registers: [registry],
    collect() {
      const status = sources.outbox();
      for (const kind of JobKinds) this.set({ kind }, status[kind].pending);
    },
  });
  new Gauge({
    name: `${prefix}outbox_given_up_last_hour`,
    help: 'Deliveries the outbox gave up in the last hour and has not sent again',
    labelNames,
    registers: [registry],
    collect() {
      const status = sources.outbox();
      for (const kind of JobKinds) this.set({ kind }, status[kind].givenUpLastHour);
    },
  });
  new Gauge({
    name: `${prefix}outbox_oldest_pending_seconds`,
    help: 'How long the oldest waiting delivery has waited (0: none waits)',
    labelNames,
    registers: [registry],
    collect() {
      const status = sources.outbox();
      const now = sources.now();
      for (const kind of JobKinds) {
        const since = status[kind].oldestPendingAt;
        this.set({ kind }, since === undefined ? 0 : Math.max(0, (now - since) / 1000));
      }
    },
  });
}

function deviceGauges(registry: Registry, sources: MetricSources): void {
  new Gauge({
    name: `${prefix}modem_ready`,
    help: 'Whether the modem can send now (1) or not (0)',
    labelNames: ['device', 'name'],
    registers: [registry],
    collect() {
      this.reset();
      for (const device of sources.devices())
        this.set({ device: device.id, name: device.name }, device.modem.status === 'ready' ? 1 : 0);
    },
  });
  new Gauge({
    name: `${prefix}modem_signal_dbm`,
    help: "The modem's received signal strength (from +CSQ), where it reports one",
    labelNames: ['device'],
    registers: [registry],
    collect() {
      this.reset();
      for (const device of sources.devices()) {
        const dbm = device.modem.signal?.dbm;
        if (dbm !== undefined) this.set({ device: device.id }, dbm);
      }
    },
  });
  new Gauge({
    name: `${prefix}modem_registration`,
    help: 'The network registration the modem reports (1 on the series of its current state)',
    labelNames: ['device', 'registration'],
    registers: [registry],
    collect() {
      this.reset();
      for (const device of sources.devices()) {
        const registration = device.modem.registration;
        if (registration !== undefined) this.set({ device: device.id, registration }, 1);
      }
    },
  });
}
