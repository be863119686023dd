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
import type { Clock, TimerHandle } from '../clock/clock.js';
import type { ModemDetails, ModemStatus, PhoneHealthDetails, SimCardInfo } from '../domain/device.js';
import type { MessageRecord } from '../domain/message.js';
import { describeError, ErrorCode, GatewayError, isGatewayError } from '../errors/gatewayError.js';
import { deliverOfText } from '../inbox/textDeliver.js';
import type { Logger } from '../logging/logger.js';
import { INTERRUPTED_ERROR } from '../messages/failureTexts.js';
import { deriveDeviceId } from '../modem/deviceIdentity.js';
import type { IncomingSink } from '../modem/modemSession.js';
import type { SendRequest, SendResult } from '../modem/outboundModem.js';
import type { PoolMember } from '../modem/poolMember.js';
import type { PhoneAddress } from './phoneAddress.js';
import { PhoneClient, type PhoneDevice, type PhoneHealth, type PhoneInboxMessage } from './phoneClient.js';
import { outcomeOf, type PhoneOutcome, phoneMessageId } from './phoneMessages.js';
import { PhonePacer, type PhonePacingSettings } from './phonePacing.js';
import { phoneHookPath, phoneWebhookEvents } from './phoneWebhooks.js';
import type { UsbConnection } from './usbConnection.js';

/** A recipient handed to this phone whose outcome is not final here yet. */
export interface OutstandingSend {
  messageId: string;
  recipientIndex: number;
  phoneNumber: string;
  withDeliveryReport: boolean;
  /** Processed: the phone holds it; Sent: a delivery report is still to come. */
  state: 'Processed' | 'Sent';
}

/** What the phone needs from the message store; the composition root backs it. */
export interface PhoneLedger {
  outstanding(deviceId: string): OutstandingSend[];
  /** Recipients this phone holds (Processed here). */
  held(deviceId: string): number;
  settle(messageId: string, phoneNumber: string, outcome: PhoneOutcome): Promise<void>;
  /** Back to the queue: the phone never got it. */
  requeue(messageId: string): Promise<void>;
  /** Times (ms) of hand-overs to this phone since `since`, for its pacing after a restart. */
  recentHandOvers(deviceId: string, since: number): number[];
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
   * this phone's secret path token, the key we give its app to sign posts with, and the
   * gateway's own port once it listens.
   */
  webhooks?: { token: string; signingKey: string; gatewayPort: () => number | undefined };
  pacing: PhonePacingSettings;
  /** Raises an event of ours (`mms:received`) for what the inbox has no record of. */
  publish?: (event: 'mms:received', payload: Record<string, unknown>) => void;
}

export const androidLimitations = [
  'Android lets an app send about 30 SMS per 30 minutes unless you allow more on the phone.',
  'Delivery states come from the phone app, not from the network directly.',
] as const;

/** GET /inbox's largest page (InboxRoutes.kt: limit 1..500). */
const INBOX_PAGE = 500;
/** The app's inbox types (modules/incoming/db/IncomingMessageType.kt) we take from GET /inbox. */
const SMS_TYPE = 'SMS';
const DATA_SMS_TYPE = 'DATA_SMS';

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
  /**
   * Phone ids whose hand-over may not have reached the phone: left Processed by a restart, or a
   * POST nobody answered. A 404 for one of these means it never arrived: back to the queue.
   */
  private readonly unsure = new Set<string>();
  /** Phone ids the phone confirmed holding (202, 409 or a GET): a 404 for one of these means it lost it. */
  private readonly confirmed = new Set<string>();
  private readonly pacer: PhonePacer;
  private firstRound = true;
  /** Webhooks are not set up on this phone (its app cannot sign them): polling only. */
  private hooksRefused = false;

  /** Takes end-to-end encrypted messages as they came: the app decrypts them with its own passphrase. */
  readonly passesEncrypted = true;

  constructor(private readonly options: AndroidPhoneOptions) {
    this.address = options.address;
    this.pacer = new PhonePacer(options.pacing);
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
    this.emitChange();
  }

  /** The phone's own limits (`phonePacing.ts`): the pool is not held while it works its queue. */
  availableAt(now: number): number {
    return this.pacer.availableAt(now, this.options.ledger.held(this.deviceId));
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
    const now = this.options.clock.now();
    this.pacer.restore(this.options.ledger.recentHandOvers(this.deviceId, now - 1_440 * 60_000));
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
   * Hands one recipient over. Resolves `held` once the phone holds it (202, or 409 for an id it
   * already has): the recipient stays Processed until the phone reports. When the POST gets no
   * answer, the phone is asked whether it has the id: yes → held; no → ModemUnavailable (nothing
   * was sent: the message goes back to the queue, to any modem); no answer either → held as
   * unsure, and the next answer to `GET /messages/{id}` settles it (never a second POST).
   */
  async send(request: SendRequest): Promise<SendResult> {
    if (this.status_ !== 'ready') {
      throw new GatewayError(ErrorCode.ModemUnavailable, `the phone at ${this.port} is ${this.status_}`);
    }
    const id = phoneMessageId(request.messageId, request.recipientIndex ?? 0);
    // An encrypted message goes as it came (number and content): the app decrypts it itself.
    const sealed = request.encrypted;
    const body = sealed?.content ?? request.content;
    const content =
      body.kind === 'text'
        ? { textMessage: { text: body.text } }
        : { dataMessage: { data: body.data, port: body.port } };
    this.pacer.record(this.options.clock.now());
    try {
      const answer = await this.client.send({
        id,
        phoneNumbers: [sealed?.recipient ?? request.recipient],
        ...content,
        simNumber: request.simNumber,
        withDeliveryReport: request.requestStatusReport,
        isEncrypted: sealed !== undefined,
        ...(request.validUntil === undefined
          ? {}
          : { validUntil: new Date(request.validUntil).toISOString() }),
      });
      this.confirm(id);
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
      this.confirm(id);
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
    this.unsure.add(id);
    this.logger.warn('the phone stopped answering during a hand-over; it is asked again later', {
      phoneMessageId: id,
    });
    return { references: [], held: true };
  }

  /** Whether a Processed message waits in this phone's queue (`MessageHolder`). */
  holds(message: MessageRecord): boolean {
    return message.deviceId === this.deviceId;
  }

  /**
   * Our cancel of a message this phone holds: the app's `DELETE /messages/{id}` for each recipient
   * still Processed here. The app cancels only what is still Pending on the phone
   * (MessagesService.kt cancelMessage); what it has taken up is refused with InvalidState.
   */
  async cancel(message: MessageRecord): Promise<void> {
    let cancelled = 0;
    let refusal: string | undefined;
    for (const [index, recipient] of message.recipients.entries()) {
      if (recipient.state !== 'Processed') continue;
      const id = phoneMessageId(message.id, index);
      let answer: 'cancelled' | 'too-late' | 'unknown';
      try {
        answer = await this.client.cancel(id);
      } catch (error) {
        throw new GatewayError(
          ErrorCode.ModemUnavailable,
          `the phone at ${this.port} does not answer; it still holds message ${message.id}, try again when it is back`,
          { cause: error },
        );
      }
      // 404 for a hand-over that never arrived: nothing to stop, nothing was sent.
      if (answer === 'cancelled' || (answer === 'unknown' && this.unsure.has(id))) {
        await this.options.ledger.settle(message.id, recipient.phoneNumber, { state: 'Cancelled' });
        this.forget(id);
        cancelled++;
        continue;
      }
      refusal =
        answer === 'too-late'
          ? `message ${message.id} is being sent by the phone and can no longer be cancelled`
          : `message ${message.id} is being handed to the phone; try again in a moment`;
    }
    this.logger.info('cancel asked of the phone', { messageId: message.id, cancelled });
    if (cancelled === 0 && refusal) throw new GatewayError(ErrorCode.InvalidState, refusal);
    this.emitChange();
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
        if (this.firstRound) {
          // Processed here before this run: a hand-over a restart may have cut short.
          for (const send of this.options.ledger.outstanding(this.deviceId)) {
            if (send.state === 'Processed')
              this.unsure.add(phoneMessageId(send.messageId, send.recipientIndex));
          }
          this.firstRound = false;
        }
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

  /**
   * Once per connection: our port reversed onto the phone, our signing key set in its app, then
   * one webhook per event there. An app that cannot take the key (no PATCH /settings) gets no
   * webhooks: unsigned posts would be refused, so polling alone serves it.
   */
  private async registerWebhooks(): Promise<void> {
    const { usb, webhooks } = this.options;
    const port = webhooks?.gatewayPort();
    if (!usb || !webhooks || port === undefined || this.hooksRefused) return;
    const url = `http://127.0.0.1:${port}${phoneHookPath(webhooks.token)}`;
    if (this.hooksAt === url) return;
    try {
      await this.client.setSigningKey(webhooks.signingKey);
    } catch (error) {
      if (!isGatewayError(error, ErrorCode.PhoneApiError)) throw error;
      // 404: an app without PATCH /settings, for good; anything else: tried again next connection.
      this.hooksRefused = error.modemCode === 404;
      this.logger.warn('the phone app did not take our webhook signing key; polling it instead', {
        error: describeError(error),
      });
      return;
    }
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

  /**
   * Outcomes of what this phone holds or sent with a report to come: polled for every recipient
   * not final here yet. A 404 for a hand-over that may not have arrived (`unsure`) puts the
   * message back in the queue once none of its recipients is on the phone; a 404 for one the
   * phone had confirmed fails it with the interruption text (the app lost it: it may have left).
   */
  private async readStates(): Promise<void> {
    const { ledger } = this.options;
    /** Per message: the phone ids of its recipients it lacks, or null once one is (or may be) there. */
    const absent = new Map<string, string[] | null>();
    const noteAbsent = (messageId: string, id: string | null) => {
      const known = absent.get(messageId);
      absent.set(messageId, id === null || known === null ? null : [...(known ?? []), id]);
    };
    for (const send of ledger.outstanding(this.deviceId)) {
      const id = phoneMessageId(send.messageId, send.recipientIndex);
      const message = await this.client.message(id);
      if (!message) {
        if (send.state !== 'Processed') continue;
        if (this.unsure.has(id)) noteAbsent(send.messageId, id);
        else if (this.confirmed.has(id)) {
          this.logger.warn('the phone no longer knows a message it held', { phoneMessageId: id });
          await ledger.settle(send.messageId, send.phoneNumber, {
            state: 'Failed',
            error: INTERRUPTED_ERROR,
          });
          this.forget(id);
        }
        // Neither: its hand-over is under way right now.
        else noteAbsent(send.messageId, null);
        continue;
      }
      if (send.state === 'Processed') {
        if (this.unsure.delete(id))
          this.logger.info('a hand-over from before a restart or an unanswered POST is on the phone', {
            phoneMessageId: id,
          });
        this.confirm(id);
        noteAbsent(send.messageId, null);
      }
      const outcome = outcomeOf(message, send.phoneNumber);
      if (!outcome || outcome.state === send.state) continue;
      await ledger.settle(send.messageId, send.phoneNumber, outcome);
      if (outcome.state !== 'Sent') this.forget(id);
      else this.confirmed.delete(id);
      this.emitChange();
    }
    for (const [messageId, ids] of absent) {
      if (ids === null) continue;
      this.logger.info('a hand-over never reached the phone; back to the queue', { messageId });
      for (const id of ids) this.unsure.delete(id);
      await ledger.requeue(messageId);
      this.emitChange();
    }
  }

  /**
   * Bounded like `seenIncoming`: an id confirmed after a webhook already made it Sent (no report
   * asked) is never polled again, so nothing else would remove it.
   */
  private confirm(id: string): void {
    this.confirmed.add(id);
    if (this.confirmed.size > 5_000) this.confirmed.delete(this.confirmed.values().next().value as string);
  }

  private forget(id: string): void {
    this.unsure.delete(id);
    this.confirmed.delete(id);
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
      const content = inboxContentOf(message);
      if (content) {
        await this.takeIncoming(message.id, message.sender, content, message.createdAt, message.simNumber);
      } else if (message.type === DATA_SMS_TYPE) {
        this.logger.warn('a data SMS longer than the inbox shows: only the phone webhook brings it whole', {
          phoneInboxId: message.id,
        });
      }
      if (createdAt > newest) newest = createdAt;
    }
    if (newest > cursor) await ledger.setInboxCursor(this.deviceId, newest);
  }

  /**
   * One incoming SMS or data SMS, from the inbox or a webhook. `appId` is the app's inbox id
   * ("text:<hash>", "data:<hash>") or the webhook's messageId (the same hash in hex:
   * modules/receiver/ReceiverService.kt); the inbox's own content-derived id keeps it stored once
   * across restarts as well.
   */
  async takeIncoming(
    appId: string,
    sender: string,
    content: IncomingContent,
    createdAt: string,
    simNumber?: number,
  ): Promise<void> {
    const key = incomingKey(appId);
    if (this.seenIncoming.has(key)) return;
    const epochMs = Date.parse(createdAt);
    const at = Number.isNaN(epochMs) ? this.options.clock.now() : epochMs;
    const text = deliverOfText(
      sender,
      content.kind === 'text' ? content.text : '',
      at,
      offsetMinutesOf(createdAt),
    );
    await this.options.receive(
      this.deviceId,
      simNumber ?? 1,
      // 8-bit user data without text: the inbox stores it as DATA_SMS, as our own modems' data SMS.
      content.kind === 'text'
        ? text
        : { ...withoutText(text), encoding: '8bit', dataCodingScheme: 0x04, bytes: content.bytes },
    );
    this.seenIncoming.add(key);
    if (this.seenIncoming.size > 2_000)
      this.seenIncoming.delete(this.seenIncoming.values().next().value as string);
  }

  /** A state a webhook brought: applied at once, the next poll confirms it. */
  async applyWebhookState(send: OutstandingSend, outcome: PhoneOutcome): Promise<void> {
    await this.options.ledger.settle(send.messageId, send.phoneNumber, outcome);
    if (outcome.state !== 'Sent') this.forget(phoneMessageId(send.messageId, send.recipientIndex));
    this.emitChange();
  }

  /**
   * An MMS the phone was notified of (`mms:received`, payload/MmsReceivedPayload.kt). Our inbox
   * keeps SMS and data SMS only, so it is passed on as our own `mms:received` webhook event with
   * the app's payload, as the app itself does, and logged.
   */
  takeMms(payload: Record<string, unknown>): void {
    this.logger.info('the phone received an MMS; passed on as mms:received', {
      messageId: String(payload.messageId ?? ''),
    });
    this.options.publish?.('mms:received', payload);
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

/** What an incoming message carries: text, or the bytes of a data SMS. */
export type IncomingContent = { kind: 'text'; text: string } | { kind: 'data'; bytes: Uint8Array };

/**
 * GET /inbox's contentPreview (modules/incoming/IncomingMessagesService.kt toPreview): the text
 * of an SMS; a data SMS's first 64 bytes in hex, with "..." when there are more (then undefined:
 * only its webhook carries it whole).
 */
function inboxContentOf(message: PhoneInboxMessage): IncomingContent | undefined {
  if (message.type === SMS_TYPE) return { kind: 'text', text: message.contentPreview };
  if (message.type !== DATA_SMS_TYPE || !/^(?:[0-9a-f]{2})+$/i.test(message.contentPreview)) return undefined;
  return { kind: 'data', bytes: Uint8Array.from(Buffer.from(message.contentPreview, 'hex')) };
}

function withoutText<T extends { text?: string }>(deliver: T): Omit<T, 'text'> {
  const { text: _text, ...rest } = deliver;
  return rest;
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
