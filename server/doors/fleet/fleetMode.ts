import type { Clock } from '../../clock/clock.js';
import type { DeviceInfo } from '../../contract/domain/device.js';
import type { MessageRecord } from '../../contract/domain/message.js';
import { serverUrlProblem } from '../../contract/domain/serverUrl.js';
import type { Logger } from '../../logging/logger.js';
import type { EventBus } from '../../services/events/eventBus.js';
import type { MessageService } from '../../services/messages/messageService.js';
import type { Outbox } from '../../services/outbox/outbox.js';
import type { SettingsDocument, SettingsService } from '../../services/settings/settingsService.js';
import type { KeyedCollection } from '../../store/keyedCollection.js';
import type { MessageRepository } from '../../store/repositories.js';
import { FleetLink, type LinkDependencies, type LinkStatus } from './fleetLink.js';
import { MessageIntake } from './messageIntake.js';
import type { FleetDeviceDocument } from './registration.js';
import { ReportTracker, type TrackedMessage } from './reportTracker.js';
import { simCardsOf } from './simCards.js';
import { isFinalState, stateReportOf } from './stateReport.js';

export const defaultPollIntervalMs = 15_000;

/** For GET /gateway/v1/status and the status bar. */
export type FleetStatus =
  | { enabled: false; unreportedStates: number; problem?: string }
  | ({ enabled: true; unreportedStates: number } & LinkStatus);

export interface FleetModeDependencies {
  settings: SettingsService;
  document: SettingsDocument<FleetDeviceDocument>;
  outbox: Outbox;
  tracked: KeyedCollection<TrackedMessage>;
  events: EventBus;
  messages: MessageService;
  repository: MessageRepository;
  webhooks: LinkDependencies['webhooks'];
  inbox: LinkDependencies['inbox'];
  /** The modem pool: its SIM cards are the ones the server is told about. */
  devices: { list(): DeviceInfo[] };
  clock: Clock;
  logger: Logger;
  pollIntervalMs?: number;
}

/**
 * Fleet mode: the gateway as one device of an SMS Gateway private server. On while
 * `gateway.cloud_url` and `gateway.private_token` are both set; changing either starts a new
 * link (and so a new registration). Every change of a message the server gave us is queued as
 * a state report, whether the link is up or not; the link sends them when it can.
 */
export class FleetMode {
  private readonly reports: ReportTracker;
  private readonly intake: MessageIntake;
  private readonly unsubscribe: (() => void)[] = [];
  private link?: FleetLink;
  private problem?: string;
  private applying: Promise<void> = Promise.resolve();

  constructor(private readonly deps: FleetModeDependencies) {
    this.reports = new ReportTracker(deps.outbox, deps.tracked);
    this.intake = new MessageIntake({
      messages: deps.messages,
      repository: deps.repository,
      reports: this.reports,
      clock: deps.clock,
      logger: deps.logger,
    });
    // Subscribed at construction, before modems and crash recovery can change a message.
    this.unsubscribe.push(
      deps.events.on('message:enqueued', ({ message }) => this.changed(message)),
      deps.events.on('message:updated', ({ message }) => this.changed(message)),
      deps.events.on('device:updated', () => this.link?.devicesChanged()),
    );
  }

  /**
   * Queues what changed while the gateway was down between a change and its report (killed in
   * between), then connects if configured.
   */
  async start(): Promise<void> {
    for (const id of this.reports.trackedIds()) {
      const message = this.deps.repository.get(id);
      if (message) await this.queueReport(message);
    }
    this.unsubscribe.push(
      this.deps.settings.onChange((_settings, keys) => {
        if (keys.some((key) => key.startsWith('gateway.'))) this.reapply();
      }),
    );
    this.connect();
  }

  async stop(): Promise<void> {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    await this.applying;
    await this.link?.stop();
    this.link = undefined;
  }

  status(): FleetStatus {
    const unreportedStates = this.reports.size;
    if (!this.link)
      return { enabled: false, unreportedStates, ...(this.problem ? { problem: this.problem } : {}) };
    return { enabled: true, unreportedStates, ...this.link.current() };
  }

  private changed(message: MessageRecord): void {
    if (message.source !== 'server') return;
    void this.queueReport(message).catch((error: unknown) =>
      this.deps.logger.error('could not queue a state report for the private server', {
        id: message.id,
        error,
      }),
    );
  }

  /** The report leaves only once durable: a server told Sent never hears Pending after a crash. */
  private queueReport(message: MessageRecord): Promise<void> {
    return this.reports.queue(stateReportOf(message), { final: isFinalState(message) });
  }

  private reapply(): void {
    this.applying = this.applying.then(async () => {
      const wasOn = this.link !== undefined;
      await this.link?.stop();
      this.link = undefined;
      this.connect();
      // Turned off: the server no longer manages any webhook or setting here.
      if (wasOn && !this.link) {
        await this.deps.webhooks.replaceFromServer([]);
        await this.deps.settings.applyFromServer({});
      }
    });
  }

  private connect(): void {
    const { cloud_url: serverUrl, private_token: credential } = this.deps.settings.current().gateway;
    delete this.problem;
    if (!serverUrl || !credential) return;
    const problem = serverUrlProblem(serverUrl);
    if (problem) {
      this.problem = `gateway.cloud_url: ${problem}`;
      this.deps.logger.error(`fleet mode is off: ${this.problem}`);
      return;
    }
    this.link = new FleetLink(
      { serverUrl, credential },
      {
        document: this.deps.document,
        intake: this.intake,
        outbox: this.deps.outbox,
        webhooks: this.deps.webhooks,
        settings: this.deps.settings,
        inbox: this.deps.inbox,
        simCards: () => simCardsOf(this.deps.devices.list()),
        clock: this.deps.clock,
        logger: this.deps.logger,
        pollIntervalMs: this.deps.pollIntervalMs ?? defaultPollIntervalMs,
      },
    );
    this.deps.logger.info('fleet mode on', { serverUrl });
    this.link.start();
  }
}
