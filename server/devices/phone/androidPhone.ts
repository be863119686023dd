/**
 * An Android phone running "SMS Gateway for Android" as a pool member: it has no AT port, only
 * the app's Local server (`phoneClient.ts`), reached over the LAN or through an adb forward.
 *
 * The phone keeps its own queue. A hand-over is `POST /messages` with an id derived from ours
 * (`phoneMessageId`); its 202 (or 409: handed over before) leaves the recipient Processed here —
 * the phone holds it, and while it is Pending there our cancel becomes the app's `DELETE`
 * (`cancel`). What the phone's SMS stack does next (Sent, Delivered, Failed) comes back by
 * polling `GET /messages/{id}` — or earlier by webhook (`phoneWebhooks.ts`); both land in
 * `settle`. The pool is free again as soon as the phone answered; the phone's own pacing and
 * in-flight bound (`phonePacing.ts`) decide when it takes the next one. Incoming SMS come from
 * `GET /inbox` since the last one seen, so a phone that was unreachable catches up when it
 * answers again.
 */
import type { Clock, TimerHandle } from '../../clock/clock.js';
import type { ModemDetails, ModemStatus, SimCardInfo } from '../../contract/domain/device.js';
import type { MessageRecord } from '../../contract/domain/message.js';
import { describeError, ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { DeviceCapabilities } from '../pool/capabilities.js';
import { deriveDeviceId } from '../pool/deviceIdentity.js';
import { MemberState } from '../pool/memberState.js';
import type { SendRequest, SendResult } from '../pool/outboundModem.js';
import type { PoolMember } from '../pool/poolMember.js';
import type { IncomingSink } from '../pool/sinks.js';
import type { PhoneAddress } from './phoneAddress.js';
import { cancelOnPhone } from './phoneCancel.js';
import { PhoneClient, type PhoneDevice, type PhoneHealth } from './phoneClient.js';
import { phoneDetails, phoneSimCards } from './phoneDetails.js';
import { PhoneHandOvers } from './phoneHandOvers.js';
import { PhoneInbox } from './phoneInbox.js';
import type { OutstandingSend, PhoneLedger } from './phoneLedger.js';
import { type PhoneOutcome, phoneMessageId, phoneSendRequestOf } from './phoneMessages.js';
import { PhonePacer, type PhonePacingSettings } from './phonePacing.js';
import { PhoneWebhookRegistration, type PhoneWebhookSettings } from './phoneWebhookRegistration.js';
import type { RelayedPhoneEvent } from './phoneWebhooks.js';
import type { UsbConnection } from './usbConnection.js';

export interface AndroidPhoneOptions {
  address: PhoneAddress;
  receive: IncomingSink;
  ledger: PhoneLedger;
  clock: Clock;
  logger: Logger;
  /** Status, outstanding states and inbox interval, ms. Default 10 000. */
  pollIntervalMs?: number;
  /** First reconnect delay after the phone stopped answering, ms; doubles up to 60 s. Default 2 000. */
  retryInitialMs?: number;
  /** One request's limit, ms. Default 10 000. */
  requestTimeoutMs?: number;
  /** A phone on USB: reached through adb forwards, made again whenever it stops answering. */
  usb?: UsbConnection;
  /** Webhooks, USB only (`phoneWebhookRegistration.ts`). */
  webhooks?: PhoneWebhookSettings;
  pacing: PhonePacingSettings;
  /** Raises an event of ours (`mms:received`, `mms:downloaded`) for what the inbox has no record of. */
  publish?: (event: RelayedPhoneEvent, payload: Record<string, unknown>) => Promise<void>;
}

/** How far back a start reads this phone's hand-overs for its pacing: its longest window, a day. */
const PACING_HISTORY_MS = 1_440 * 60_000;
/** The longest wait between two tries to reach a phone that stopped answering. */
const RETRY_MAX_MS = 60_000;

export class AndroidPhone implements PoolMember {
  /** A USB phone by its adb serial; a network phone by the address it was added with. */
  readonly deviceId: string;
  /**
   * The app's Local server has no USSD, SIM PIN or SMS domain route (Android asks for the PIN
   * itself); its message states carry delivery.
   */
  readonly capabilities: DeviceCapabilities = { storage: this, deliveryReports: true };
  /** The app version whose MMS support was probed (`PhoneClient.takesMms`); a new one is probed again. */
  private mmsProbedFor?: string;
  private readonly client: PhoneClient;
  private readonly logger: Logger;
  private readonly state: MemberState;
  private readonly pacer: PhonePacer;
  private readonly handOvers: PhoneHandOvers;
  private readonly inbox: PhoneInbox;
  private readonly webhooks: PhoneWebhookRegistration;
  private address: PhoneAddress;
  private device?: PhoneDevice;
  private health?: PhoneHealth;
  private timer?: TimerHandle;
  private failures = 0;
  /** The app's last answer was a 401: the user or password is wrong. */
  private loginRefused_ = false;
  private stopped = false;
  private polling: Promise<void> = Promise.resolve();
  private firstRound = true;

  /** Takes end-to-end encrypted messages as they came: the app decrypts them with its own passphrase. */
  readonly passesEncrypted = true;

  constructor(private readonly options: AndroidPhoneOptions) {
    const { address, ledger, clock } = options;
    this.state = new MemberState(clock);
    this.address = address;
    this.deviceId = address.adbSerial
      ? deriveDeviceId({ usbSerialNumber: address.adbSerial, port: address.url })
      : deriveDeviceId({ port: `android:${address.url}` });
    this.pacer = new PhonePacer(options.pacing);
    this.client = new PhoneClient({
      address: () => this.address,
      timeoutMs: options.requestTimeoutMs ?? 10_000,
    });
    this.logger = options.logger.child(`phone:${address.url}`);
    const { deviceId, client, logger } = this;
    this.handOvers = new PhoneHandOvers({
      deviceId,
      client,
      ledger,
      logger,
      changed: () => this.state.changed(),
    });
    this.inbox = new PhoneInbox({ deviceId, client, ledger, receive: options.receive, clock, logger });
    const { usb, webhooks } = options;
    this.webhooks = new PhoneWebhookRegistration({ deviceId, client, logger, usb, webhooks });
  }

  get port(): string {
    return this.options.address.url;
  }

  /** The secret path token its webhooks post to, when it has webhooks. */
  get hookToken(): string | undefined {
    return this.options.webhooks?.token;
  }

  /** The key its app signs webhook posts with, when it has webhooks. */
  get signingKey(): string | undefined {
    return this.options.webhooks?.signingKey;
  }

  get pacing(): PhonePacingSettings {
    return this.pacer.settings;
  }

  /** New pacing applies to the next hand-over. */
  setPacing(pacing: PhonePacingSettings): void {
    this.pacer.settings = pacing;
    this.state.changed();
  }

  /** The phone's own limits (`phonePacing.ts`): the pool is not held while it works its queue. */
  availableAt(now: number): number {
    return this.pacer.availableAt(now, this.options.ledger.held(this.deviceId));
  }

  get status(): ModemStatus {
    return this.state.status;
  }

  get simSlots(): number {
    return Math.max(1, this.device?.simCards?.length ?? 1);
  }

  get lastSeen(): number {
    return this.state.lastSeen;
  }

  onChange(listener: () => void): () => void {
    return this.state.onChange(listener);
  }

  /** One round (identity, health, states, inbox); then on a timer. Never rejects: an unreachable phone is offline. */
  async start(): Promise<void> {
    this.stopped = false;
    const now = this.options.clock.now();
    this.pacer.restore(this.options.ledger.recentHandOvers(this.deviceId, now - PACING_HISTORY_MS));
    await this.round();
  }

  /** Removes our webhooks from the phone (when it answers) and the adb forward. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.polling;
    await this.webhooks.unregister(this.state.status === 'ready');
    await this.options.usb?.release();
    this.state.set('offline', 'stopped');
  }

  /** Runs a round now (a webhook said something changed, or a test drives it). */
  async pollNow(): Promise<void> {
    this.timer?.cancel();
    await this.polling;
    await this.round();
  }

  details(): ModemDetails {
    const { port, device, health } = this;
    return phoneDetails({ port, status: this.state.status, statusDetail: this.state.detail, device, health });
  }

  simCard(): SimCardInfo {
    const [first] = this.simCards();
    return first ?? { slotIndex: 0, simNumber: 1 };
  }

  simCards(): SimCardInfo[] {
    return phoneSimCards(this.device);
  }

  /**
   * Hands one recipient over. Resolves `held` once the phone holds it (202, or 409 for an id it
   * already has): the recipient stays Processed until the phone reports. When the POST gets no
   * answer, the phone is asked whether it has the id: yes → held; no → ModemUnavailable (nothing
   * was sent: the message goes back to the queue, to any modem); no answer either → held as
   * unsure, and the next answer to `GET /messages/{id}` settles it (never a second POST).
   */
  async send(request: SendRequest): Promise<SendResult> {
    if (this.state.status !== 'ready') {
      throw new GatewayError(ErrorCode.ModemUnavailable, `the phone at ${this.port} is ${this.state.status}`);
    }
    const id = phoneMessageId(request.messageId, request.recipientIndex ?? 0);
    const body = phoneSendRequestOf(id, request);
    this.pacer.record(this.options.clock.now());
    try {
      const answer = await this.client.send(body);
      this.handOvers.confirm(id);
      this.touch();
      this.logger.info(
        answer === 'accepted' ? 'message handed to the phone' : 'the phone already had the message',
        {
          messageId: request.messageId,
          phoneMessageId: id,
        },
      );
      return { references: [], held: true };
    } catch (error) {
      if (!isGatewayError(error, ErrorCode.PhoneUnreachable)) throw error;
      if (connectionRefused(error)) {
        // Nothing listens (adb dropped the forward, the app's server is off): the request never left.
        this.markUnreachable(error);
        throw new GatewayError(ErrorCode.ModemUnavailable, `the phone at ${this.port} does not answer`, {
          cause: error,
        });
      }
      return this.resolveUnanswered(id, error);
    }
  }

  /** Whether the phone holds a message id: a hand-over got no answer. */
  async lookup(id: string): Promise<'held' | 'absent' | 'unknown'> {
    try {
      return (await this.client.message(id)) ? 'held' : 'absent';
    } catch (error) {
      this.logger.warn('could not ask the phone about a message', {
        phoneMessageId: id,
        error: describeError(error),
      });
      return 'unknown';
    }
  }

  async refreshInbox(): Promise<void> {
    await this.inbox.read();
  }

  private async resolveUnanswered(id: string, cause: GatewayError): Promise<SendResult> {
    const held = await this.lookup(id);
    if (held === 'held') {
      this.handOvers.confirm(id);
      this.touch();
      return { references: [], held: true };
    }
    this.markUnreachable(cause);
    if (held === 'absent') {
      throw new GatewayError(
        ErrorCode.ModemUnavailable,
        `the phone at ${this.port} did not take the message`,
        {
          cause,
        },
      );
    }
    // It may be on the phone: asked again (GET, never POST) once the phone answers.
    this.handOvers.markUnsure(id);
    this.logger.warn('the phone stopped answering during a hand-over; it is asked again later', {
      phoneMessageId: id,
    });
    return { references: [], held: true };
  }

  /** Whether a Processed message waits in this phone's queue (`MessageHolder`). */
  holds(message: MessageRecord): boolean {
    return message.deviceId === this.deviceId;
  }

  /** Our cancel of a message this phone holds (`phoneCancel.ts`). */
  async cancel(message: MessageRecord): Promise<void> {
    const { client, handOvers, logger } = this;
    await cancelOnPhone(message, { port: this.port, client, ledger: this.options.ledger, handOvers, logger });
    this.state.changed();
  }

  /** One incoming SMS or data SMS a webhook brought (`PhoneInbox.take`). */
  takeIncoming(...message: Parameters<PhoneInbox['take']>): Promise<void> {
    return this.inbox.take(...message);
  }

  /** A state a webhook brought: applied at once, the next poll confirms it. */
  async applyWebhookState(send: OutstandingSend, outcome: PhoneOutcome): Promise<void> {
    await this.handOvers.applyWebhookState(send, outcome);
  }

  /**
   * An MMS the phone was notified of (`mms:received`) or finished downloading (`mms:downloaded`).
   * Our inbox keeps SMS and data SMS only, so it is passed on as our own webhook event of that
   * name with the app's payload, as the app itself does, and logged. Resolves once its
   * webhooks are owed durably: the phone's webhook is answered after that, so it posts again
   * after a crash.
   */
  async relayMms(event: RelayedPhoneEvent, payload: Record<string, unknown>): Promise<void> {
    this.logger.info(`the phone posted ${event}; passed on`, {
      messageId: String(payload.messageId ?? ''),
    });
    await this.options.publish?.(event, payload);
  }

  /** Whether the app refused our user or password the last time it was asked. */
  get loginRefused(): boolean {
    return this.loginRefused_;
  }

  /**
   * Asks the app, where it is reached now, whether it takes this login: 'accepted', 'refused'
   * (401), or 'unanswered' when it cannot tell (no answer, another error). Changes nothing.
   */
  async checkLogin(username: string, password: string): Promise<'accepted' | 'refused' | 'unanswered'> {
    const candidate = this.address.withLogin(username, password);
    const client = new PhoneClient({
      address: () => candidate,
      timeoutMs: this.options.requestTimeoutMs ?? 10_000,
    });
    try {
      await client.device();
      return 'accepted';
    } catch (error) {
      return isLoginRefusal(error) ? 'refused' : 'unanswered';
    }
  }

  /** Uses a login `checkLogin` accepted, from the next request on. */
  adoptLogin(username: string, password: string): void {
    this.address = this.address.withLogin(username, password);
  }

  /** Points the phone somewhere else (a new adb forward), keeping its id and password. */
  moveTo(url: string): void {
    this.address = this.address.at(url);
  }

  /** Connects (USB: a fresh adb forward), then identity, health, webhooks, states and inbox; then on a timer. */
  private async round(): Promise<void> {
    const run = (async () => {
      const { usb } = this.options;
      if (usb && this.state.status !== 'ready') {
        try {
          this.address = this.address.at((await usb.connect()).url);
          this.webhooks.connectionChanged();
        } catch (error) {
          this.markUnreachable(error, describeError(error));
          return;
        }
      }
      try {
        this.health = await this.client.health();
        if (!this.device) this.device = await this.client.device();
        await this.probeMms(this.health.version ?? '');
        this.touch();
        this.failures = 0;
        this.loginRefused_ = false;
        if (this.firstRound) {
          this.handOvers.adoptFromBeforeRestart();
          this.firstRound = false;
        }
        this.state.set('ready');
        await this.webhooks.register();
        await this.handOvers.readStates();
        await this.inbox.read();
      } catch (error) {
        this.markUnreachable(error);
      }
    })();
    this.polling = run;
    await run;
    if (this.stopped) return;
    const retry = Math.min(
      RETRY_MAX_MS,
      (this.options.retryInitialMs ?? 2_000) * 2 ** Math.max(0, this.failures - 1),
    );
    const delay = this.failures > 0 ? retry : (this.options.pollIntervalMs ?? 10_000);
    this.timer = this.options.clock.setTimer(() => void this.round(), delay);
  }

  get sendsMms(): boolean {
    return this.capabilities.mms === true;
  }

  /** Once per app version: whether it takes MMS. A refusal to say is a no, logged. */
  private async probeMms(version: string): Promise<void> {
    if (this.mmsProbedFor === version) return;
    let takes = false;
    try {
      takes = await this.client.takesMms();
    } catch (error) {
      this.logger.warn('could not tell whether the app sends MMS; it is given none', {
        error: describeError(error),
      });
    }
    this.mmsProbedFor = version;
    if (takes === (this.capabilities.mms === true)) return;
    if (takes) this.capabilities.mms = true;
    else delete this.capabilities.mms;
    this.logger.info(takes ? 'the app sends MMS' : 'the app sends no MMS', { version });
    this.state.changed();
  }

  private markUnreachable(error: unknown, detail?: string): void {
    this.failures++;
    const refused = isLoginRefusal(error);
    this.loginRefused_ = refused;
    this.logger.warn('the phone does not answer', { error: describeError(error) });
    this.state.set(
      'offline',
      detail ??
        (refused
          ? describeError(error)
          : `The phone does not answer at ${this.port}: is the SMS Gateway app's Local server on, and the phone on the same network (or plugged in by USB)?`),
    );
  }

  private touch(): void {
    this.state.touch();
    this.state.changed();
  }
}

/** The app's Basic auth answers 401, with no body, to a wrong user or password (WebService.kt). */
function isLoginRefusal(error: unknown): boolean {
  return isGatewayError(error, ErrorCode.PhoneApiError) && error.modemCode === 401;
}

function connectionRefused(error: GatewayError): boolean {
  const cause = (error.cause as { cause?: { code?: string } } | undefined)?.cause;
  return cause?.code === 'ECONNREFUSED';
}
