/**
 * An Android phone running "SMS Gateway for Android" as a pool member: it has no AT port, only
 * the app's Local server (`phoneClient.ts`), reached over the LAN or through an adb forward.
 *
 * The phone keeps its own queue. A hand-over is `POST /messages` with an id derived from ours
 * (`phoneMessageId`); its 202 (or 409: handed over before) makes the recipient Sent here, and
 * what the phone's SMS stack does next (Delivered, Failed) comes back by polling
 * `GET /messages/{id}` — or earlier by webhook (`phoneWebhooks.ts`); both land in `settle`.
 * Incoming SMS come from `GET /inbox` since the last one seen, so a phone that was unreachable
 * catches up when it answers again.
 */
import type { Clock, TimerHandle } from '../clock/clock.js';
import type { ModemDetails, ModemStatus, PhoneHealthDetails, SimCardInfo } from '../domain/device.js';
import { describeError, ErrorCode, GatewayError, isGatewayError } from '../errors/gatewayError.js';
import { deliverOfText } from '../inbox/textDeliver.js';
import type { Logger } from '../logging/logger.js';
import { deriveDeviceId } from '../modem/deviceIdentity.js';
import type { IncomingSink } from '../modem/modemSession.js';
import type { SendRequest, SendResult } from '../modem/outboundModem.js';
import type { PoolMember } from '../modem/poolMember.js';
import type { PhoneAddress } from './phoneAddress.js';
import { PhoneClient, type PhoneDevice, type PhoneHealth, type PhoneInboxMessage } from './phoneClient.js';
import { outcomeOf, type PhoneOutcome, phoneMessageId } from './phoneMessages.js';
import { phoneHookPath, phoneWebhookEvents } from './phoneWebhooks.js';
import type { UsbConnection } from './usbConnection.js';

/** A recipient this phone accepted whose outcome is not final here yet. */
export interface OutstandingSend {
  messageId: string;
  recipientIndex: number;
  phoneNumber: string;
  withDeliveryReport: boolean;
}

/** What the phone needs from the message store; the composition root backs it. */
export interface PhoneLedger {
  outstanding(deviceId: string): OutstandingSend[];
  settle(messageId: string, phoneNumber: string, outcome: PhoneOutcome): Promise<void>;
  /** createdAt (ms) of the newest incoming message taken from this phone. */
  inboxCursor(deviceId: string): number | undefined;
  setInboxCursor(deviceId: string, at: number): Promise<void>;
}

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
  /**
   * Webhooks (USB only: the app posts plain http to 127.0.0.1 alone, through `adb reverse`):
   * this phone's secret path token and the gateway's own port once it listens.
   */
  webhooks?: { token: string; gatewayPort: () => number | undefined };
}

export const androidLimitations = [
  'Android lets an app send about 30 SMS per 30 minutes unless you allow more on the phone.',
  'Delivery states come from the phone app, not from the network directly.',
] as const;

/** GET /inbox's largest page (InboxRoutes.kt: limit 1..500). */
const INBOX_PAGE = 500;
/** The app's SMS inbox type (modules/incoming/db/IncomingMessageType.kt). */
const SMS_TYPE = 'SMS';

export class AndroidPhone implements PoolMember {
  private readonly client: PhoneClient;
  private readonly logger: Logger;
  private readonly listeners = new Set<() => void>();
  private address: PhoneAddress;
  private status_: ModemStatus = 'starting';
  private statusDetail?: string;
  private device?: PhoneDevice;
  private health?: PhoneHealth;
  private lastSeen_ = 0;
  private timer?: TimerHandle;
  private failures = 0;
  private stopped = false;
  private polling: Promise<void> = Promise.resolve();
  /** The URL our webhooks are registered at on the phone, for the current connection. */
  private hooksAt?: string;
  /** The app's ids of incoming messages already taken, so an overlap of two reads costs nothing. */
  private readonly seenIncoming = new Set<string>();

  constructor(private readonly options: AndroidPhoneOptions) {
    this.address = options.address;
    this.client = new PhoneClient({
      address: () => this.address,
      timeoutMs: options.requestTimeoutMs ?? 10_000,
    });
    this.logger = options.logger.child(`phone:${options.address.url}`);
  }

  get port(): string {
    return this.options.address.url;
  }

  /** A USB phone by its adb serial; a network phone by the address it was added with. */
  get deviceId(): string {
    const { address } = this.options;
    return address.adbSerial
      ? deriveDeviceId({ usbSerialNumber: address.adbSerial, port: address.url })
      : deriveDeviceId({ port: `android:${address.url}` });
  }

  /** The secret path token its webhooks post to, when it has webhooks. */
  get hookToken(): string | undefined {
    return this.options.webhooks?.token;
  }

  get status(): ModemStatus {
    return this.status_;
  }

  get simSlots(): number {
    return Math.max(1, this.device?.simCards?.length ?? 1);
  }

  get lastSeen(): number {
    return this.lastSeen_;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One round (identity, health, states, inbox); then on a timer. Never rejects: an unreachable phone is offline. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.round();
  }

  /** Removes our webhooks from the phone (when it answers) and the adb forward. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.polling;
    if (this.hooksAt && this.status_ === 'ready') {
      for (const event of phoneWebhookEvents) {
        await this.client.deleteWebhook(this.webhookId(event)).catch(() => undefined);
      }
    }
    this.hooksAt = undefined;
    await this.options.usb?.release();
    this.setStatus('offline', 'stopped');
  }

  /** Runs a round now (a webhook said something changed, or a test drives it). */
  async pollNow(): Promise<void> {
    this.timer?.cancel();
    await this.polling;
    await this.round();
  }

  details(): ModemDetails {
    const details: ModemDetails = {
      port: this.port,
      simulated: false,
      status: this.status_,
      kind: 'android',
      limitations: [...androidLimitations],
    };
    if (this.statusDetail) details.statusDetail = this.statusDetail;
    const [manufacturer, model] = (this.device?.name ?? '').split('/');
    if (manufacturer) details.manufacturer = manufacturer;
    if (model) details.model = model;
    const operator = this.device?.simCards?.[0]?.carrierName;
    if (operator) details.operator = operator;
    const phone = phoneHealthDetails(this.health);
    if (phone) details.phone = phone;
    return details;
  }

  simCard(): SimCardInfo {
    const sim = this.device?.simCards?.[0];
    const card: SimCardInfo = { slotIndex: sim?.slotIndex ?? 0, simNumber: sim?.simNumber ?? 1 };
    if (sim?.phoneNumber) card.phoneNumber = sim.phoneNumber;
    if (sim?.carrierName) card.carrierName = sim.carrierName;
    return card;
  }

  /**
   * Hands one recipient over. Resolves once the phone holds it (202, or 409 for an id it already
   * has). When the POST gets no answer, the phone is asked whether it has the id: yes → handed
   * over; no → ModemUnavailable (nothing was sent: the message goes back to the queue, to any
   * modem); no answer either → SendInterrupted (it may be on the phone).
   */
  async send(request: SendRequest): Promise<SendResult> {
    if (this.status_ !== 'ready') {
      throw new GatewayError(ErrorCode.ModemUnavailable, `the phone at ${this.port} is ${this.status_}`);
    }
    const id = phoneMessageId(request.messageId, request.recipientIndex ?? 0);
    const content =
      request.content.kind === 'text'
        ? { textMessage: { text: request.content.text } }
        : { dataMessage: { data: request.content.data, port: request.content.port } };
    try {
      const answer = await this.client.send({
        id,
        phoneNumbers: [request.recipient],
        ...content,
        simNumber: request.simNumber,
        withDeliveryReport: request.requestStatusReport,
        isEncrypted: false,
        ...(request.validUntil === undefined
          ? {}
          : { validUntil: new Date(request.validUntil).toISOString() }),
      });
      this.touch();
      this.logger.info(
        answer === 'accepted' ? 'message handed to the phone' : 'the phone already had the message',
        {
          messageId: request.messageId,
          phoneMessageId: id,
        },
      );
      return { references: [] };
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

  /** Whether the phone holds a message id: after a crash cut a hand-over short. */
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
    await this.readInbox();
  }

  enterPin(): Promise<void> {
    return Promise.reject(
      new GatewayError(
        ErrorCode.InvalidState,
        'unlock the SIM on the phone itself: Android asks for its PIN',
      ),
    );
  }

  setSmsService(): Promise<void> {
    return Promise.reject(
      new GatewayError(ErrorCode.InvalidState, 'an Android phone chooses how it sends SMS by itself'),
    );
  }

  /** The app's Local server has no USSD route: dial the code on the phone itself. */
  ussd(): Promise<never> {
    return Promise.reject(
      new GatewayError(
        ErrorCode.InvalidState,
        'USSD is not available through the SMS Gateway app; dial it on the phone',
      ),
    );
  }

  cancelUssd(): Promise<void> {
    return this.ussd();
  }

  private async resolveUnanswered(id: string, cause: GatewayError): Promise<SendResult> {
    const held = await this.lookup(id);
    if (held === 'held') {
      this.touch();
      return { references: [] };
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
    throw new GatewayError(
      ErrorCode.SendInterrupted,
      `the phone at ${this.port} stopped answering during the hand-over`,
      {
        cause,
      },
    );
  }

  private async round(): Promise<void> {
    const run = (async () => {
      const { usb } = this.options;
      if (usb && this.status_ !== 'ready') {
        try {
          this.address = this.address.at((await usb.connect()).url);
          this.hooksAt = undefined;
        } catch (error) {
          this.markUnreachable(error, describeError(error));
          return;
        }
      }
      try {
        this.health = await this.client.health();
        if (!this.device) this.device = await this.client.device();
        this.touch();
        this.failures = 0;
        this.setStatus('ready');
        await this.registerWebhooks();
        await this.readStates();
        await this.readInbox();
      } catch (error) {
        this.markUnreachable(error);
      }
    })();
    this.polling = run;
    await run;
    if (this.stopped) return;
    const retry = Math.min(
      60_000,
      (this.options.retryInitialMs ?? 2_000) * 2 ** Math.max(0, this.failures - 1),
    );
    const delay = this.failures > 0 ? retry : (this.options.pollIntervalMs ?? 10_000);
    this.timer = this.options.clock.setTimer(() => void this.round(), delay);
  }

  private markUnreachable(error: unknown, detail?: string): void {
    this.failures++;
    const refused = isGatewayError(error, ErrorCode.PhoneApiError) && error.modemCode === 401;
    this.logger.warn('the phone does not answer', { error: describeError(error) });
    this.setStatus(
      'offline',
      detail ??
        (refused
          ? describeError(error)
          : `The phone does not answer at ${this.port}: is the SMS Gateway app's Local server on, and the phone on the same network (or plugged in by USB)?`),
    );
  }

  /** Once per connection: our port reversed onto the phone, then one webhook per event there. */
  private async registerWebhooks(): Promise<void> {
    const { usb, webhooks } = this.options;
    const port = webhooks?.gatewayPort();
    if (!usb || !webhooks || port === undefined) return;
    const url = `http://127.0.0.1:${port}${phoneHookPath(webhooks.token)}`;
    if (this.hooksAt === url) return;
    await usb.reverse(port);
    // Same ids every time: the app replaces a webhook with a known id (WebHooksService.kt replace).
    for (const event of phoneWebhookEvents)
      await this.client.registerWebhook(this.webhookId(event), url, event);
    this.hooksAt = url;
    this.logger.info('webhooks registered on the phone', { events: phoneWebhookEvents.join(', ') });
  }

  private webhookId(event: string): string {
    return `smsgw-${this.deviceId}-${event.replace(':', '-')}`;
  }

  /** Outcomes of what this phone accepted: polled for every recipient not final here yet. */
  private async readStates(): Promise<void> {
    for (const send of this.options.ledger.outstanding(this.deviceId)) {
      const message = await this.client.message(phoneMessageId(send.messageId, send.recipientIndex));
      if (!message) continue;
      const outcome = outcomeOf(message, send.phoneNumber, send.withDeliveryReport);
      if (outcome) await this.options.ledger.settle(send.messageId, send.phoneNumber, outcome);
    }
  }

  /** Everything since the newest message taken (inclusive: an equal timestamp is not lost). */
  private async readInbox(): Promise<void> {
    const { ledger } = this.options;
    const cursor = ledger.inboxCursor(this.deviceId);
    if (cursor === undefined) {
      // A phone added now: its past inbox is its own business, the gateway's starts here.
      await ledger.setInboxCursor(this.deviceId, this.options.clock.now());
      return;
    }
    const fresh: PhoneInboxMessage[] = [];
    for (let offset = 0; ; offset += INBOX_PAGE) {
      const page = await this.client.inbox(new Date(cursor), INBOX_PAGE, offset);
      fresh.push(...page);
      if (page.length < INBOX_PAGE) break;
    }
    let newest = cursor;
    // Oldest first, so the cursor only moves past what is stored.
    for (const message of fresh.reverse()) {
      const createdAt = Date.parse(message.createdAt);
      if (message.type === SMS_TYPE)
        await this.takeIncoming(
          message.id,
          message.sender,
          message.contentPreview,
          message.createdAt,
          message.simNumber,
        );
      if (createdAt > newest) newest = createdAt;
    }
    if (newest > cursor) await ledger.setInboxCursor(this.deviceId, newest);
  }

  /**
   * One incoming SMS, from the inbox or a webhook. `appId` is the app's inbox id ("text:<hash>")
   * or the webhook's messageId (the same hash in hex: modules/receiver/ReceiverService.kt); the
   * inbox's own content-derived id keeps it stored once across restarts as well.
   */
  async takeIncoming(
    appId: string,
    sender: string,
    text: string,
    createdAt: string,
    simNumber?: number,
  ): Promise<void> {
    const key = incomingKey(appId);
    if (this.seenIncoming.has(key)) return;
    const epochMs = Date.parse(createdAt);
    await this.options.receive(
      this.deviceId,
      simNumber ?? 1,
      deliverOfText(
        sender,
        text,
        Number.isNaN(epochMs) ? this.options.clock.now() : epochMs,
        offsetMinutesOf(createdAt),
      ),
    );
    this.seenIncoming.add(key);
    if (this.seenIncoming.size > 2_000)
      this.seenIncoming.delete(this.seenIncoming.values().next().value as string);
  }

  /** A state a webhook brought: applied at once, the next poll confirms it. */
  async applyWebhookState(send: OutstandingSend, outcome: PhoneOutcome): Promise<void> {
    await this.options.ledger.settle(send.messageId, send.phoneNumber, outcome);
  }

  /** Points the phone somewhere else (a new adb forward), keeping its id and password. */
  moveTo(url: string): void {
    this.address = this.address.at(url);
  }

  private touch(): void {
    this.lastSeen_ = this.options.clock.now();
    this.emitChange();
  }

  private setStatus(status: ModemStatus, detail?: string): void {
    if (this.status_ === status && this.statusDetail === detail) return;
    this.status_ = status;
    this.statusDetail = detail;
    this.emitChange();
  }

  private emitChange(): void {
    for (const listener of this.listeners) listener();
  }
}

function connectionRefused(error: GatewayError): boolean {
  const cause = (error.cause as { cause?: { code?: string } } | undefined)?.cause;
  return cause?.code === 'ECONNREFUSED';
}

/** "text:-1234" (inbox, signed decimal) and "fffffb2e" (webhook, unsigned hex) name the same SMS. */
export function incomingKey(appId: string): string {
  const decimal = /^(?:text|data):(-?\d+)$/.exec(appId)?.[1];
  return decimal === undefined ? appId.toLowerCase() : (Number(decimal) >>> 0).toString(16);
}

/** The phone writes its own offset ("…+02:00", "…Z"): the SMS's zone as it saw it. */
function offsetMinutesOf(date: string): number | undefined {
  if (date.endsWith('Z')) return 0;
  const match = /([+-])(\d{2}):(\d{2})$/.exec(date);
  if (!match) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/** modules/health: "battery:level" (percent), "battery:charging" (flags, bit 0 = charging), "connection:status". */
function phoneHealthDetails(health: PhoneHealth | undefined): PhoneHealthDetails | undefined {
  if (!health) return undefined;
  const details: PhoneHealthDetails = {};
  const level = health.checks?.['battery:level']?.observedValue;
  const charging = health.checks?.['battery:charging']?.observedValue;
  const internet = health.checks?.['connection:status']?.observedValue;
  if (level !== undefined) details.batteryPercent = level;
  if (charging !== undefined) details.charging = (charging & 1) === 1;
  if (internet !== undefined) details.internet = internet === 1;
  if (health.version) details.appVersion = health.version;
  return details;
}
