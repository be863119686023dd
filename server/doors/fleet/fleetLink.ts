import type { Clock, TimerHandle } from '../../clock/clock.js';
import { describeError, ErrorCode, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { InboxReplay } from '../../services/inbox/inboxReplay.js';
import type { Outbox } from '../../services/outbox/outbox.js';
import type { SettingsDocument, SettingsService } from '../../services/settings/settingsService.js';
import type { WebhookRegistry } from '../../services/webhooks/webhookRegistry.js';
import { readServerEvents } from './eventStream.js';
import type { MessageIntake } from './messageIntake.js';
import type { MobileSimCard } from './mobileApi.js';
import { cancelledMessageIdOf, exportRequestOf } from './pushData.js';
import {
  ensureRegistered,
  type FleetDevice,
  type FleetDeviceDocument,
  type Registration,
} from './registration.js';
import { serveReports } from './reportDelivery.js';
import { ServerClient } from './serverClient.js';
import { settingsFromServer } from './serverSettings.js';
import { SimCardSync } from './simCardSync.js';

/**
 * `registering` until the server gave us a device token; `connected` while the events stream
 * is open; `reconnecting` while it is not (work is then fetched every poll interval);
 * `rejected` when the server refused the credential or the token — nothing is tried again until
 * the user changes them.
 */
export type LinkState = 'registering' | 'connected' | 'reconnecting' | 'rejected';

export interface LinkStatus {
  state: LinkState;
  serverUrl: string;
  deviceId?: string;
  login?: string;
  /** Last time the server answered anything (ms since epoch). */
  lastExchangeAt?: number;
  lastError?: string;
  /** The password of the user the server created at registration, in this run only. */
  createdUserPassword?: string;
}

export interface LinkDependencies {
  document: SettingsDocument<FleetDeviceDocument>;
  intake: MessageIntake;
  /** The one outbox, whose state reports this link delivers while it is registered. */
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  /** Where the server's webhooks go (the gateway's registry, which then refuses local edits). */
  webhooks: Pick<WebhookRegistry, 'replaceFromServer'>;
  /**
   * Where the server's settings go (the gateway's settings, which then refuse local edits), and
   * the processing order each `GET /message` asks for.
   */
  settings: Pick<SettingsService, 'applyFromServer' | 'current'>;
  /** Serves MessagesExportRequested (the same replay as our POST /inbox/export). */
  inbox: Pick<InboxReplay, 'export'>;
  /** The SIM cards the server is told about, as they are now. */
  simCards(): MobileSimCard[];
  /** Fetch interval while the events stream is down (upstream app: 15 s). */
  pollIntervalMs: number;
}

/**
 * One connection to one private server with one credential: registers, listens to
 * `GET /events` (SSE; a desktop has no FCM, so the server notifies it this way), fetches
 * `GET /message` once at start, on every MessageEnqueued and every poll interval while the
 * stream is down, cancels on MessageCancelled, replays the inbox on MessagesExportRequested,
 * keeps the server's copy of our SIM cards current, and delivers the outbox's state reports.
 */
export class FleetLink {
  private readonly stopSignal = new AbortController();
  private readonly client: ServerClient;
  private readonly status: LinkStatus;
  private device?: FleetDevice;
  private stopReports?: () => Promise<void>;
  private simCardSync?: SimCardSync;
  private tickTimer?: TimerHandle;
  private fetching?: Promise<void>;
  private fetchAgain = false;
  private streaming = false;

  constructor(
    private readonly config: { serverUrl: string; credential: string },
    private readonly deps: LinkDependencies,
  ) {
    this.client = new ServerClient(config.serverUrl);
    this.status = { state: 'registering', serverUrl: config.serverUrl };
  }

  start(): void {
    void this.register();
  }

  current(): LinkStatus {
    return { ...this.status };
  }

  /** A modem changed: the server hears of it if its SIM cards did. */
  devicesChanged(): void {
    this.simCardSync?.sync();
  }

  async stop(): Promise<void> {
    this.stopSignal.abort();
    this.tickTimer?.cancel();
    await this.fetching;
    await this.stopReports?.();
    await this.simCardSync?.stop();
  }

  private get stopped(): boolean {
    return this.stopSignal.signal.aborted;
  }

  private async register(): Promise<void> {
    let registration: Registration;
    try {
      registration = await ensureRegistered({
        document: this.deps.document,
        client: this.client,
        serverUrl: this.config.serverUrl,
        credential: this.config.credential,
        simCards: this.deps.simCards(),
        logger: this.deps.logger,
      });
    } catch (error) {
      this.failed(error, 'could not register with the private server');
      if (!this.stopped && this.status.state !== 'rejected') {
        this.tickTimer = this.deps.clock.setTimer(() => void this.register(), this.deps.pollIntervalMs);
      }
      return;
    }
    this.device = registration.device;
    this.status.deviceId = registration.device.id;
    this.status.login = registration.device.login;
    if (registration.createdUserPassword) this.status.createdUserPassword = registration.createdUserPassword;
    if (this.stopped) return;
    const { id: deviceId, token } = registration.device;
    this.simCardSync = new SimCardSync(
      {
        current: () => this.deps.simCards(),
        patch: (simCards) => this.client.patchDevice(token, { id: deviceId, simCards }),
        clock: this.deps.clock,
        retryDelayMs: this.deps.pollIntervalMs,
        logger: this.deps.logger,
        onExchange: (error) =>
          error === undefined ? this.answered() : this.failed(error, 'the SIM cards wait'),
      },
      registration.sentSimCards && SimCardSync.signature(registration.sentSimCards),
    );
    this.simCardSync.sync();
    this.stopReports = serveReports({
      outbox: this.deps.outbox,
      client: this.client,
      deviceToken: this.device.token,
      onExchange: (error) =>
        error === undefined ? this.answered() : this.failed(error, 'state reports wait'),
    });
    void this.fetchMessages();
    void this.listen();
  }

  /** Keeps the events stream open; while it is down, fetches and retries every poll interval. */
  private async listen(): Promise<void> {
    const token = this.device?.token;
    if (!token || this.stopped) return;
    try {
      const response = await this.client.openEvents(token, this.stopSignal.signal);
      if (!response.body) throw new Error('GET /events answered without a body');
      this.streaming = true;
      this.status.state = 'connected';
      this.answered();
      this.deps.logger.info('listening to the private server', { serverUrl: this.config.serverUrl });
      // Whatever was enqueued while the stream was down was never announced.
      void this.fetchMessages();
      void this.syncWebhooks();
      void this.syncSettings();
      await readServerEvents(response.body, (type, data) => {
        this.answered();
        if (type === 'MessageEnqueued') void this.fetchMessages();
        if (type === 'MessageCancelled') void this.messageCancelled(data);
        if (type === 'MessagesExportRequested') void this.exportInbox(data);
        if (type === 'WebhooksUpdated') void this.syncWebhooks();
        if (type === 'SettingsUpdated') void this.syncSettings();
      });
      if (!this.stopped) this.deps.logger.warn('the private server closed the events stream', {});
    } catch (error) {
      if (this.stopped) return;
      this.failed(error, 'the events stream is down');
    } finally {
      this.streaming = false;
    }
    if (this.stopped || this.status.state === 'rejected') return;
    this.status.state = 'reconnecting';
    this.tickTimer = this.deps.clock.setTimer(() => {
      void this.fetchMessages();
      void this.listen();
    }, this.deps.pollIntervalMs);
  }

  /** One `GET /message` at a time; a request for another while one runs makes one more after it. */
  private fetchMessages(): Promise<void> {
    if (this.fetching) {
      this.fetchAgain = true;
      return this.fetching;
    }
    this.fetching = this.fetchWhileAsked().finally(() => {
      this.fetching = undefined;
    });
    return this.fetching;
  }

  private async fetchWhileAsked(): Promise<void> {
    do {
      this.fetchAgain = false;
      const token = this.device?.token;
      if (!token || this.stopped) return;
      try {
        const order = this.deps.settings.current().messages.processing_order === 'FIFO' ? 'fifo' : 'lifo';
        const messages = await this.client.pendingMessages(token, order);
        this.answered();
        await this.deps.intake.take(messages);
      } catch (error) {
        this.failed(error, 'could not fetch messages from the private server');
      }
    } while (this.fetchAgain && !this.stopped);
  }

  /**
   * Cancels the message if we hold it; if not, it was cancelled before we fetched it, and the
   * next fetch lists it as Cancelling, so we fetch now to report it Cancelled at once.
   */
  private async messageCancelled(data: string): Promise<void> {
    const id = cancelledMessageIdOf(data);
    if (id === undefined) {
      this.deps.logger.warn('the private server sent MessageCancelled without a message id', { data });
      return;
    }
    try {
      if (!(await this.deps.intake.cancel(id))) await this.fetchMessages();
    } catch (error) {
      this.deps.logger.error('could not cancel a message the private server cancelled', {
        id,
        error: describeError(error),
      });
    }
  }

  /** As the app's ReceiverService.export, through the replay behind our POST /inbox/export. */
  private async exportInbox(data: string): Promise<void> {
    const request = exportRequestOf(data);
    if ('refused' in request) {
      this.deps.logger.warn(`an inbox export of the private server sends nothing: ${request.refused}`, {
        data,
      });
      return;
    }
    try {
      await this.deps.inbox.export(request.period, request.mode);
    } catch (error) {
      this.deps.logger.error('the inbox export the private server asked for failed', {
        error: describeError(error),
      });
    }
  }

  /** As the app's WebhooksUpdateWorker: the server's list replaces what it set before. */
  private async syncWebhooks(): Promise<void> {
    const token = this.device?.token;
    if (!token || this.stopped) return;
    try {
      const webhooks = await this.client.webhooks(token);
      this.answered();
      await this.deps.webhooks.replaceFromServer(
        webhooks.map((webhook) => ({ id: webhook.id, url: webhook.url, event: webhook.event })),
      );
    } catch (error) {
      this.failed(error, 'could not fetch the webhooks of the private server');
    }
  }

  /** As the app's SettingsUpdateWorker: the server's settings apply and become managed. */
  private async syncSettings(): Promise<void> {
    const token = this.device?.token;
    if (!token || this.stopped) return;
    try {
      const body = await this.client.settings(token);
      this.answered();
      await this.deps.settings.applyFromServer(settingsFromServer(body, this.deps.logger));
    } catch (error) {
      this.failed(error, 'could not apply the settings of the private server');
    }
  }

  private answered(): void {
    this.status.lastExchangeAt = this.deps.clock.now();
    delete this.status.lastError;
    if (this.status.state === 'registering') this.status.state = 'reconnecting';
    if (this.stopReports) this.deps.outbox.wake('fleet-report');
    this.simCardSync?.sync();
  }

  private failed(error: unknown, what: string): void {
    const message = describeError(error);
    if (this.stopped) return;
    this.status.lastError = message;
    if (isGatewayError(error, ErrorCode.FleetRejected)) {
      this.status.state = 'rejected';
      this.deps.logger.error(
        `${what}: the private server rejected this gateway; change the token in Settings`,
        {
          error: message,
        },
      );
      this.stopSignal.abort();
      this.tickTimer?.cancel();
      return;
    }
    if (!this.streaming && this.status.state === 'connected') this.status.state = 'reconnecting';
    this.deps.logger.warn(`${what}`, { error: message });
  }
}
