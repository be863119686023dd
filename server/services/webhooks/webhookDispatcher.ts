import { randomUUID } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { Clock, TimerHandle } from '../../clock/clock.js';
import type { AttemptOutcome, OutboxJob } from '../../contract/domain/outboxJob.js';
import type { WebhookEvent, WebhookEventName } from '../../contract/domain/webhookEvents.js';
import { signWebhookBody } from '../../contract/domain/webhookSignature.js';
import { describeError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import { defaultAppId } from '../auth/appDirectory.js';
import type { EventBus } from '../events/eventBus.js';
import type { Outbox } from '../outbox/outbox.js';
import {
  type OwnNumberLookup,
  payloadForIncoming,
  payloadForIncomingBatch,
  payloadsForUpdate,
} from './eventPayloads.js';
import { payloadForLowBalance, payloadForMissedCall } from './modemEventPayloads.js';
import { type IncomingRule, reachesTarget } from './webhookAudience.js';
import {
  type DeliveryState,
  deliveryEnvelope,
  deliveryOf,
  type WebhookDelivery,
  type WebhookJobPayload,
  type WebhookTarget,
} from './webhookDelivery.js';
import type { PostOptions, WebhookPoster } from './webhookPoster.js';

/** Read on every attempt, so settings changes apply live. */
export interface WebhookPolicy {
  retryCount: number;
  /** `webhooks.signing_key`; without one, deliveries carry no X-Signature. */
  signingKey?: string;
  /** Hold deliveries to non-loopback receivers while the PC has no network. */
  internetRequired: boolean;
  /** `ping.interval_seconds`; null or 0: no system:ping. */
  pingIntervalSeconds: number | null;
}

export interface WebhookDispatcherDeps {
  outbox: Outbox;
  targets: () => readonly WebhookTarget[];
  policy: () => WebhookPolicy;
  events: EventBus;
  post: WebhookPoster;
  clock: Clock;
  logger: Logger;
  /** Payload of system:ping: the health report. */
  health: () => Promise<Record<string, unknown>>;
  /** Whether an app's webhooks hear an incoming message on a device; absent: every app's do. */
  incomingFor?: IncomingRule;
  /** `sender` of the outgoing-message events; absent: no SIM's number is known. */
  ownNumber?: OwnNumberLookup;
  isOnline?: () => boolean;
  newId?: () => string;
  /** Default: 5 s to connect, 15 s for the whole exchange. */
  timeouts?: PostOptions;
  /** Parallel attempts per webhook; one slow receiver never holds up another. Default 4. */
  maxInFlightPerWebhook?: number;
}

export interface DeliveryQuery {
  webhookId?: string;
  state?: DeliveryState;
  limit: number;
}

export interface DispatcherStatus {
  pending: number;
  failedLastHour: number;
  /** `webhooks.signing_key` is set: deliveries carry X-Signature. */
  signed: boolean;
  /**
   * Named by id only: the status is read with `messages:list`, and a webhook's URL often holds
   * its secret (a Home Assistant webhook id), which only `webhooks:list` may read.
   */
  lastFailure?: { webhookId: string; error: string; at: number };
}

/** While offline (internet_required), look again this often. */
const offlineRecheckMs = 30_000;

/**
 * Turns gateway events into webhook deliveries, jobs of the one outbox (outbox/outbox.ts): kept
 * in the commit of their fact, then attempted, retried and resumed there. Each webhook is a lane,
 * so a slow or dead receiver delays nobody else — and never the sending of SMS.
 */
export class WebhookDispatcher {
  private readonly unsubscribe: (() => void)[] = [];
  private stopServing?: () => Promise<void>;
  private pingTimer?: TimerHandle;
  private stopped = true;
  private lastFailure?: DispatcherStatus['lastFailure'];
  /** When each webhook last took a delivery (since start): its earlier failures are not news. */
  private readonly lastDeliveredAt = new Map<string, number>();
  private readonly timeouts: PostOptions;
  private readonly maxInFlight: number;
  private readonly isOnline: () => boolean;
  private readonly newId: () => string;
  private readonly ownNumber: OwnNumberLookup;
  private readonly incomingFor: IncomingRule;

  constructor(private readonly deps: WebhookDispatcherDeps) {
    this.timeouts = deps.timeouts ?? { connectTimeoutMs: 5_000, totalTimeoutMs: 15_000 };
    this.maxInFlight = deps.maxInFlightPerWebhook ?? 4;
    this.isOnline = deps.isOnline ?? hasNetworkInterface;
    this.newId = deps.newId ?? randomUUID;
    this.ownNumber = deps.ownNumber ?? (() => undefined);
    this.incomingFor = deps.incomingFor ?? (() => true);
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.stopServing = this.deps.outbox.serve<WebhookJobPayload>('webhook', {
      lanes: { order: 'parallel', inFlight: this.maxInFlight },
      attempt: async ([job]) => (job ? [await this.attempt(job)] : []),
      maxAttempts: () => 1 + Math.max(0, this.deps.policy().retryCount),
      describe: (job) => `webhook ${job.payload.webhookId} (${job.payload.event})`,
    });
    const { events } = this.deps;
    this.unsubscribe.push(
      // Stored facts: their deliveries go into the commit that stores the fact, so a crash after
      // that commit cannot lose the webhook (the transactional outbox).
      events.onRecord('message:received', (incoming) =>
        this.publishInBackground(payloadForIncoming(incoming)),
      ),
      events.onRecord('message:updated', ({ message, previous }) => {
        const raised = payloadsForUpdate(message, previous, this.ownNumber);
        const owner = message.appId ?? defaultAppId;
        for (const event of raised) this.publishInBackground({ ...event, owner });
      }),
      events.on('inbox:replayed', (incoming) => this.publishInBackground(payloadForIncoming(incoming))),
      events.on('inbox:batchReplayed', (batch) => this.publishInBackground(payloadForIncomingBatch(batch))),
      events.onRecord('gateway:fact', (event) => this.publishInBackground(event)),
      events.onRecord('call:missed', (call) => this.publishInBackground(payloadForMissedCall(call))),
      events.onRecord('modem:low-balance', (low) => this.publishInBackground(payloadForLowBalance(low))),
    );
    this.schedulePing();
    await this.publish({
      event: 'app:started',
      deviceId: '',
      payload: { startedAt: new Date(this.deps.clock.now()).toISOString() },
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    this.pingTimer?.cancel();
    await this.stopServing?.();
  }

  /**
   * Stores one delivery per matching webhook (durably) and starts delivering. The deliveries are
   * written before the first `await`, so a caller inside an open batch (`EventBus.record`) gets
   * them into that batch.
   */
  async publish(event: WebhookEvent, onlyWebhookId?: string): Promise<WebhookDelivery[]> {
    const targets = this.deps
      .targets()
      .filter(
        (target) =>
          target.event === event.event &&
          (onlyWebhookId === undefined || target.id === onlyWebhookId) &&
          reachesTarget(target, event, this.incomingFor) &&
          (target.deviceId === undefined || target.deviceId === event.deviceId || event.deviceId === ''),
      );
    const jobs = await Promise.all(
      targets.map((target) =>
        this.deps.outbox.hold<WebhookJobPayload>({
          id: this.newId(),
          kind: 'webhook',
          lane: target.id,
          payload: {
            webhookId: target.id,
            url: target.url,
            event: event.event,
            deviceId: event.deviceId,
            payload: event.payload,
          },
        }),
      ),
    );
    return jobs.map(deliveryOf);
  }

  /** The UI's "send test event": a sample of the webhook's own event kind, to it alone. */
  async sendTest(webhookId: string): Promise<WebhookDelivery | undefined> {
    const target = this.deps.targets().find((candidate) => candidate.id === webhookId);
    if (!target) return undefined;
    const [delivery] = await this.publish(
      {
        event: target.event as WebhookEventName,
        deviceId: target.deviceId ?? '',
        payload: this.samplePayload(target.event),
      },
      webhookId,
    );
    return delivery;
  }

  /**
   * "Send again": failed deliveries go back to pending with their retries renewed, and are
   * attempted at once (their past attempts stay in the record). `ids` absent: every failed one,
   * of `webhookId` alone when given. Answers the deliveries taken up; a pending or delivered one
   * is left as it is.
   */
  async resend(filter: { ids?: readonly string[]; webhookId?: string }): Promise<WebhookDelivery[]> {
    const resent = await this.deps.outbox.resend<WebhookJobPayload>({
      kind: 'webhook',
      ...(filter.ids ? { ids: filter.ids } : {}),
      ...(filter.webhookId !== undefined ? { lane: filter.webhookId } : {}),
    });
    return resent.map(deliveryOf);
  }

  list(query: DeliveryQuery): WebhookDelivery[] {
    return this.deps.outbox
      .list<WebhookJobPayload>({
        kind: 'webhook',
        limit: query.limit,
        ...(query.webhookId !== undefined ? { lane: query.webhookId } : {}),
        ...(query.state !== undefined ? { state: query.state } : {}),
      })
      .map(deliveryOf);
  }

  /**
   * `failedLastHour` counts the failures of the hour not followed by a delivery to the same
   * webhook: once a receiver takes deliveries again, its failures stop being news (they stay
   * in the list, to send again).
   */
  status(): DispatcherStatus {
    const pending = this.deps.outbox.pendingCount('webhook');
    const failedLastHour = this.deps.outbox
      .recentlyGivenUp('webhook')
      .filter((entry) => entry.at > (this.lastDeliveredAt.get(entry.lane) ?? 0)).length;
    const lastFailure =
      this.lastFailure &&
      this.lastFailure.at > (this.lastDeliveredAt.get(this.lastFailure.webhookId) ?? 0) &&
      failedLastHour > 0
        ? { lastFailure: this.lastFailure }
        : {};
    return { pending, failedLastHour, signed: Boolean(this.deps.policy().signingKey), ...lastFailure };
  }

  private publishInBackground(event: WebhookEvent): void {
    this.publish(event).catch((error) =>
      this.deps.logger.error(`could not queue webhook event ${event.event}`, { error: describeError(error) }),
    );
  }

  private async attempt(job: OutboxJob<WebhookJobPayload>): Promise<AttemptOutcome> {
    const policy = this.deps.policy();
    const target = this.deps.targets().find((candidate) => candidate.id === job.payload.webhookId);
    const now = this.deps.clock.now();
    if (!target) return { kind: 'failed', error: 'the webhook was removed before delivery', final: true };
    if (policy.internetRequired && !isLoopbackUrl(target.url) && !this.isOnline()) {
      return { kind: 'wait', reason: 'waiting for a network connection', retryAt: now + offlineRecheckMs };
    }
    const body = deliveryEnvelope(job.id, job.payload);
    const timestamp = String(Math.floor(now / 1000));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Desktop-SMS-Gateway',
      'x-timestamp': timestamp,
    };
    if (policy.signingKey) headers['x-signature'] = signWebhookBody(body, timestamp, policy.signingKey);
    let status: number | undefined;
    let error: string | undefined;
    try {
      ({ status } = await this.deps.post(target.url, body, headers, this.timeouts));
      if (status < 200 || status > 299) error = `receiver answered HTTP ${status}`;
    } catch (failure) {
      error = describeError(failure);
    }
    const finishedAt = this.deps.clock.now();
    const answered = status !== undefined ? { status } : {};
    if (error === undefined) {
      this.lastDeliveredAt.set(job.lane, finishedAt);
      return { kind: 'done', ...answered };
    }
    this.lastFailure = { webhookId: job.lane, error, at: finishedAt };
    return { kind: 'failed', error, ...answered };
  }

  private schedulePing(): void {
    const seconds = this.deps.policy().pingIntervalSeconds;
    // Re-read every minute when off, so turning it on in the settings applies live.
    const delayMs = seconds && seconds > 0 ? seconds * 1000 : 60_000;
    this.pingTimer = this.deps.clock.setTimer(() => {
      if (this.stopped) return;
      const current = this.deps.policy().pingIntervalSeconds;
      if (current && current > 0) {
        this.deps
          .health()
          .then((health) => this.publish({ event: 'system:ping', deviceId: '', payload: { health } }))
          .catch((error) =>
            this.deps.logger.error('could not send system:ping', { error: describeError(error) }),
          );
      }
      this.schedulePing();
    }, delayMs);
  }

  private samplePayload(event: string): Record<string, unknown> {
    const at = new Date(this.deps.clock.now()).toISOString();
    const common = { messageId: 'test-event', phoneNumber: '+15550000000', simNumber: 1, test: true };
    switch (event) {
      case 'sms:received':
        return { ...common, message: 'This is a test event from Desktop SMS Gateway', receivedAt: at };
      case 'sms:data-received':
        return { ...common, data: 'dGVzdA==', receivedAt: at };
      case 'sms:sent':
        return { ...common, partsCount: 1, sentAt: at };
      case 'sms:delivered':
        return { ...common, deliveredAt: at };
      case 'sms:failed':
        return { ...common, failedAt: at, reason: 'test event' };
      case 'sms:cancelled':
        return { ...common, cancelledAt: at };
      case 'sms:batch:received':
        return { messages: [this.samplePayload('sms:received')] };
      case 'sms:batch:data-received':
        return { messages: [this.samplePayload('sms:data-received')] };
      default:
        return { test: true, at };
    }
  }
}

export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

function hasNetworkInterface(): boolean {
  return Object.values(networkInterfaces()).some((addresses) =>
    addresses?.some((address) => !address.internal),
  );
}
