import { randomUUID } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { defaultAppId } from '../auth/appDirectory.js';
import type { Clock, TimerHandle } from '../clock/clock.js';
import type { WebhookEvent, WebhookEventName } from '../domain/webhookEvents.js';
import { describeError } from '../errors/gatewayError.js';
import type { EventBus } from '../events/eventBus.js';
import type { Logger } from '../logging/logger.js';
import {
  type OwnNumberLookup,
  payloadForIncoming,
  payloadForIncomingBatch,
  payloadsForUpdate,
} from './eventPayloads.js';
import { payloadForLowBalance, payloadForMissedCall } from './modemEventPayloads.js';
import { hasAttemptsLeft, retryDelayMs } from './retryPolicy.js';
import { signWebhookBody } from './signature.js';
import { type IncomingRule, reachesTarget } from './webhookAudience.js';
import {
  type DeliveryOutbox,
  type DeliveryState,
  deliveryEnvelope,
  type WebhookDelivery,
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
  outbox: DeliveryOutbox;
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
  /** Finished deliveries are kept this long for the UI, then pruned. Default 7 days. */
  retentionMs?: number;
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
const keptAttempts = 10;
const pruneIntervalMs = 60 * 60_000;

/**
 * Turns gateway events into webhook deliveries: stored in the outbox first, then attempted,
 * retried with back-off, and resumed after a restart. Each webhook has its own lane, so a slow
 * or dead receiver delays nobody else — and never the sending of SMS, which does not wait here.
 */
export class WebhookDispatcher {
  private readonly pendingByWebhook = new Map<string, Set<string>>();
  private readonly inFlight = new Map<string, Set<string>>();
  private readonly running = new Set<Promise<void>>();
  private readonly unsubscribe: (() => void)[] = [];
  private wakeTimer?: TimerHandle;
  private wakeAt = Number.POSITIVE_INFINITY;
  private pingTimer?: TimerHandle;
  private pruneTimer?: TimerHandle;
  private stopped = true;
  private lastFailure?: DispatcherStatus['lastFailure'];
  /** When each webhook last took a delivery (since start): its earlier failures are not news. */
  private readonly lastDeliveredAt = new Map<string, number>();
  private readonly timeouts: PostOptions;
  private readonly maxInFlight: number;
  private readonly retentionMs: number;
  private readonly isOnline: () => boolean;
  private readonly newId: () => string;
  private readonly ownNumber: OwnNumberLookup;
  private readonly incomingFor: IncomingRule;

  constructor(private readonly deps: WebhookDispatcherDeps) {
    this.timeouts = deps.timeouts ?? { connectTimeoutMs: 5_000, totalTimeoutMs: 15_000 };
    this.maxInFlight = deps.maxInFlightPerWebhook ?? 4;
    this.retentionMs = deps.retentionMs ?? 7 * 24 * 60 * 60_000;
    this.isOnline = deps.isOnline ?? hasNetworkInterface;
    this.newId = deps.newId ?? randomUUID;
    this.ownNumber = deps.ownNumber ?? (() => undefined);
    this.incomingFor = deps.incomingFor ?? (() => true);
  }

  async start(): Promise<void> {
    this.stopped = false;
    for (const delivery of this.deps.outbox.values()) {
      if (delivery.state === 'pending') this.track(delivery);
    }
    const resumed = [...this.pendingByWebhook.values()].reduce((sum, ids) => sum + ids.size, 0);
    if (resumed > 0) this.deps.logger.info(`resuming ${resumed} webhook deliveries from the outbox`);
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
    this.schedulePrune();
    await this.publish({
      event: 'app:started',
      deviceId: '',
      payload: { startedAt: new Date(this.deps.clock.now()).toISOString() },
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    this.wakeTimer?.cancel();
    this.pingTimer?.cancel();
    this.pruneTimer?.cancel();
    await Promise.allSettled([...this.running]);
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
    const now = this.deps.clock.now();
    const deliveries = targets.map(
      (target): WebhookDelivery => ({
        id: this.newId(),
        webhookId: target.id,
        url: target.url,
        event: event.event,
        deviceId: event.deviceId,
        payload: event.payload,
        createdAt: now,
        state: 'pending',
        nextAttemptAt: now,
        attemptCount: 0,
        attempts: [],
      }),
    );
    await Promise.all(deliveries.map((delivery) => this.deps.outbox.put(delivery)));
    for (const delivery of deliveries) this.track(delivery);
    this.pump();
    return deliveries;
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
    const wanted = filter.ids && new Set(filter.ids);
    const now = this.deps.clock.now();
    const resent: WebhookDelivery[] = [];
    for (const delivery of [...this.deps.outbox.values()]) {
      if (delivery.state !== 'failed') continue;
      if (wanted && !wanted.has(delivery.id)) continue;
      if (filter.webhookId !== undefined && delivery.webhookId !== filter.webhookId) continue;
      const { finishedAt: _finishedAt, ...rest } = delivery;
      resent.push({ ...rest, state: 'pending', nextAttemptAt: now, attemptCount: 0 });
    }
    await Promise.all(resent.map((delivery) => this.deps.outbox.put(delivery)));
    for (const delivery of resent) this.track(delivery);
    this.pump();
    return resent;
  }

  list(query: DeliveryQuery): WebhookDelivery[] {
    const matches: WebhookDelivery[] = [];
    for (const delivery of this.deps.outbox.values()) {
      if (query.webhookId !== undefined && delivery.webhookId !== query.webhookId) continue;
      if (query.state !== undefined && delivery.state !== query.state) continue;
      matches.push(delivery);
    }
    return matches.sort((left, right) => right.createdAt - left.createdAt).slice(0, query.limit);
  }

  /**
   * `failedLastHour` counts the failures of the hour not followed by a delivery to the same
   * webhook: once a receiver takes deliveries again, its failures stop being news (they stay
   * in the list, to send again).
   */
  status(): DispatcherStatus {
    const hourAgo = this.deps.clock.now() - 60 * 60_000;
    let pending = 0;
    const failedAt: WebhookDelivery[] = [];
    for (const delivery of this.deps.outbox.values()) {
      if (delivery.state === 'pending') pending++;
      else if (delivery.state === 'failed' && (delivery.finishedAt ?? 0) >= hourAgo) failedAt.push(delivery);
    }
    const failedLastHour = failedAt.filter(
      (delivery) => (delivery.finishedAt ?? 0) > (this.lastDeliveredAt.get(delivery.webhookId) ?? 0),
    ).length;
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

  private track(delivery: WebhookDelivery): void {
    let ids = this.pendingByWebhook.get(delivery.webhookId);
    if (!ids) {
      ids = new Set();
      this.pendingByWebhook.set(delivery.webhookId, ids);
    }
    ids.add(delivery.id);
  }

  /** Starts every due attempt the lanes have room for, then sleeps until the next one is due. */
  private pump(): void {
    if (this.stopped) return;
    const now = this.deps.clock.now();
    let nextDue = Number.POSITIVE_INFINITY;
    for (const [webhookId, ids] of this.pendingByWebhook) {
      const busy = this.inFlight.get(webhookId) ?? new Set<string>();
      this.inFlight.set(webhookId, busy);
      const due: WebhookDelivery[] = [];
      for (const id of ids) {
        if (busy.has(id)) continue;
        const delivery = this.deps.outbox.get(id);
        if (delivery?.state !== 'pending') {
          ids.delete(id);
          continue;
        }
        if (delivery.nextAttemptAt <= now) due.push(delivery);
        else nextDue = Math.min(nextDue, delivery.nextAttemptAt);
      }
      // Oldest first, so a receiver sees events in the order they happened when it keeps up.
      due.sort((left, right) => left.createdAt - right.createdAt);
      for (const delivery of due) {
        if (busy.size >= this.maxInFlight) break;
        busy.add(delivery.id);
        const attempt = this.attempt(delivery).finally(() => {
          busy.delete(delivery.id);
          this.running.delete(attempt);
          this.pump();
        });
        this.running.add(attempt);
      }
      if (ids.size === 0) this.pendingByWebhook.delete(webhookId);
    }
    this.scheduleWake(nextDue);
  }

  private scheduleWake(at: number): void {
    if (at === Number.POSITIVE_INFINITY || at >= this.wakeAt) return;
    this.wakeTimer?.cancel();
    this.wakeAt = at;
    this.wakeTimer = this.deps.clock.setTimer(() => {
      this.wakeAt = Number.POSITIVE_INFINITY;
      this.pump();
    }, at - this.deps.clock.now());
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    const policy = this.deps.policy();
    const target = this.deps.targets().find((candidate) => candidate.id === delivery.webhookId);
    const now = this.deps.clock.now();
    if (!target) {
      await this.finish(delivery, 'failed', 'the webhook was removed before delivery');
      return;
    }
    if (policy.internetRequired && !isLoopbackUrl(target.url) && !this.isOnline()) {
      // Not an attempt: nothing was tried. Look again later without using up retries.
      await this.deps.outbox.put({
        ...delivery,
        nextAttemptAt: now + offlineRecheckMs,
        lastError: 'waiting for a network connection',
      });
      return;
    }
    const body = deliveryEnvelope(delivery);
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
    const attempts = [...delivery.attempts, { at: now, status, error, durationMs: finishedAt - now }].slice(
      -keptAttempts,
    );
    const attempted: WebhookDelivery = {
      ...delivery,
      url: target.url,
      attempts,
      attemptCount: delivery.attemptCount + 1,
    };
    if (error === undefined) {
      this.lastDeliveredAt.set(delivery.webhookId, finishedAt);
      await this.finish(attempted, 'delivered');
      return;
    }
    this.lastFailure = { webhookId: delivery.webhookId, error, at: finishedAt };
    if (hasAttemptsLeft(attempted.attemptCount, policy.retryCount)) {
      const delay = retryDelayMs(attempted.attemptCount);
      this.deps.logger.warn(
        `webhook ${delivery.webhookId} (${delivery.event}) failed, retrying in ${delay / 1000} s`,
        { error },
      );
      await this.deps.outbox.put({ ...attempted, lastError: error, nextAttemptAt: finishedAt + delay });
      return;
    }
    this.deps.logger.error(
      `webhook ${delivery.webhookId} (${delivery.event}) failed for good after ${attempted.attemptCount} attempts`,
      {
        deliveryId: delivery.id,
        error,
      },
    );
    await this.finish(attempted, 'failed', error);
  }

  private async finish(delivery: WebhookDelivery, state: DeliveryState, lastError?: string): Promise<void> {
    const finished: WebhookDelivery = { ...delivery, state, finishedAt: this.deps.clock.now() };
    if (lastError === undefined) delete finished.lastError;
    else finished.lastError = lastError;
    await this.deps.outbox.put(finished);
    this.pendingByWebhook.get(delivery.webhookId)?.delete(delivery.id);
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

  private schedulePrune(): void {
    this.pruneTimer = this.deps.clock.setTimer(() => {
      if (this.stopped) return;
      this.prune().catch((error) =>
        this.deps.logger.warn('could not prune webhook deliveries', { error: describeError(error) }),
      );
      this.schedulePrune();
    }, pruneIntervalMs);
  }

  private async prune(): Promise<void> {
    const before = this.deps.clock.now() - this.retentionMs;
    const old = [...this.deps.outbox.values()].filter(
      (delivery) => delivery.state !== 'pending' && (delivery.finishedAt ?? delivery.createdAt) < before,
    );
    for (const delivery of old) await this.deps.outbox.delete(delivery.id);
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
