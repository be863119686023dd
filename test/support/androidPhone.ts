/**
 * A contract double of the Local server of "SMS Gateway for Android" (capcom6/android-sms-gateway),
 * on a real HTTP server on loopback. Written from the app's source (paths under
 * app/src/main/java/me/capcom/smsgateway/), not from our own gateway:
 * - modules/localserver/WebService.kt: Basic auth on everything but GET /health (401 with an
 *   empty body and a `WWW-Authenticate` realm); `/message` and `/messages`, `/webhook` and
 *   `/webhooks` are twins; GET /device answers a list of one Device.
 * - modules/localserver/routes/MessagesRoutes.kt: POST /messages answers 202 with the message
 *   (content included), 409 `{"message":"Message with the same ID already exists"}`
 *   (modules/messages/exceptions/ConflictException.kt) for a known id; GET /messages/{id} 404
 *   with an empty body when unknown; DELETE /messages/{id} cancels only a Pending message
 *   ("Message … is not in Pending state", 400; modules/messages/MessagesService.kt cancelMessage),
 *   answering 200 with the message (content left out) once Cancelled, again 200 when it already
 *   was, 404 with an empty body for an unknown id (routes/MessagesRoutes.kt delete("{id}")).
 *   `isEncrypted: true` content and numbers are stored as they came: the app decrypts them only
 *   when it sends (modules/messages/MessagesService.kt, encryptionService.decrypt).
 * - modules/localserver/domain/messages/PostMessageRequest.kt (validate()), Message.kt (id,
 *   deviceId, state, isHashed, isEncrypted, scheduleAt, textMessage, dataMessage, hashedMessage,
 *   recipients[phoneNumber, state, error], states), TextMessage.kt, DataMessage.kt.
 * - MMS, from the branch "mms/extended-support" (docs/MMS.md, domain/messages/MmsMessage.kt,
 *   PostMessageRequest.kt `validate`), only while `takesMms` is on (a release before it ignores
 *   the unknown field, as Gson does): `mmsMessage {subject?, text?, attachments[{contentType,
 *   name?, data}]}` as a fourth content; "MMS message must have text or at least one
 *   attachment", "MMS attachment contentType cannot be empty", "MMS attachment data cannot be
 *   empty", "MMS attachment size exceeds the 2MB limit" (Base64 longer than 2 MiB), each 400.
 * - domain/ProcessingState.kt: Pending, Cancelling, Cancelled, Processed, Sent, Delivered, Failed.
 * - extensions/GsonBuilder.kt: dates as "yyyy-MM-dd'T'HH:mm:ss.SSSXXX" in the phone's offset;
 *   Gson omits null fields.
 * - modules/messages/MessagesService.kt resultToErrorMessage: a failed send's error is
 *   "Send result: RESULT_ERROR_LIMIT_EXCEEDED (Failed because we reached the sending queue limit)".
 * - modules/localserver/routes/InboxRoutes.kt: GET /inbox (type, limit 1..500, offset, from, to;
 *   `X-Total-Count`), InboxMessage (id, type, sender, recipient, simNumber, contentPreview,
 *   createdAt, attachments); modules/incoming/IncomingMessagesService.kt buildId: the id is
 *   "text:" / "data:" + the message's hashCode() in decimal.
 * - modules/localserver/routes/WebhooksRoutes.kt and modules/webhooks/WebHooksService.kt replace:
 *   POST /webhooks answers 201 with the stored WebHookDTO (id, deviceId, url, event, source);
 *   plain http only to 127.0.0.1 ("url must start with https:// or http://127.0.0.1", 400);
 *   DELETE /webhooks/{id} 204.
 * - modules/webhooks/domain/WebHookEventDTO.kt (id, webhookId, event, deviceId, payload),
 *   payload/SmsEventPayload.kt (messageId, sender, recipient, simNumber, phoneNumber, plus
 *   partsCount+sentAt / deliveredAt / failedAt+reason / message+receivedAt / data+receivedAt),
 *   payload/MmsReceivedPayload.kt (transactionId, subject, size, contentClass, receivedAt),
 *   payload/MmsDownloadedPayload.kt (body, subject, attachments [partId, contentType, name,
 *   size, data in Base64], receivedAt; modules/receiver/ReceiverService.kt, MmsContentReader.kt);
 *   modules/receiver/ReceiverService.kt: a received SMS's or data SMS's messageId is its
 *   hashCode() as an unsigned hex number, a data SMS's `data` is Base64 (NO_WRAP), an MMS
 *   notification's messageId is its Message-ID or else its transactionId, a downloaded MMS's its
 *   row id in content://mms (modules/receiver/MmsContentObserver.kt processMmsDownloaded).
 * - modules/webhooks/plugins/PayloadSingingPlugin.kt: with a signing key, every post carries
 *   `X-Timestamp` (Unix seconds) and `X-Signature`, the lowercase hex HmacSHA256 of the body text
 *   followed by the timestamp, keyed with the key's bytes. routes/SettingsRoutes.kt PATCH
 *   /settings with modules/settings/SettingsService.kt and modules/webhooks/WebhooksSettings.kt:
 *   `{"webhooks": {"signing_key": …}}` sets it (200 with the settings, whose export leaves the
 *   key out).
 * - modules/incoming/IncomingMessagesService.kt toPreview and buildId: a data SMS's inbox
 *   preview is its first 64 bytes in hex ("..." after when longer), id "data:<hash>"; an MMS
 *   notification's preview is its subject, id "mms-header:<hash>".
 * - modules/health/HealthService.kt with monitors/BatteryMonitor.kt ("battery:level" percent,
 *   "battery:charging" flags) and modules/connection/ConnectionService.kt ("connection:status",
 *   "connection:transport", "connection:cellular"); domain/HealthResponse.kt (status, checks,
 *   version, releaseId).
 *
 * What a phone does by itself is driven by the test: `advance()` moves a message's recipient
 * through Processed/Sent/Delivered/Failed (and posts the webhooks registered for it),
 * `receive()` puts an SMS into the phone's inbox, `unplug()` makes it unreachable.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

type ProcessingState = 'Pending' | 'Cancelling' | 'Cancelled' | 'Processed' | 'Sent' | 'Delivered' | 'Failed';

export interface PhoneMessage {
  id: string;
  phoneNumbers: string[];
  textMessage?: { text: string };
  dataMessage?: { data: string; port: number };
  mmsMessage?: PhoneMms;
  simNumber?: number;
  withDeliveryReport: boolean;
  isEncrypted: boolean;
  state: ProcessingState;
  recipients: { phoneNumber: string; state: ProcessingState; error?: string }[];
  states: Partial<Record<ProcessingState, number>>;
}

export interface PhoneMms {
  subject?: string;
  text?: string;
  attachments: { contentType: string; name?: string; data: string }[];
}

/** PostMessageRequest.kt MAX_ATTACHMENT_BASE64_LENGTH. */
const maxAttachmentBase64Length = 2 * 1024 * 1024;

interface PhoneInboxMessage {
  hash: number;
  type: 'SMS' | 'DATA_SMS' | 'MMS' | 'MMS_DOWNLOADED';
  sender: string;
  simNumber: number;
  content: string;
  createdAt: number;
}

interface Webhook {
  id: string;
  url: string;
  event: string;
}

/** The gateway's phone timing for tests: a phone is polled and retried quickly. */
export const fastPhonePolling = { pollIntervalMs: 200, retryInitialMs: 200, requestTimeoutMs: 3_000 };
/** `vi.waitFor` room for a loaded shared machine: these wait on real HTTP round trips and timers. */
export const phonePatience = { timeout: 20_000, interval: 50 };

export const limitExceededError =
  'Send result: RESULT_ERROR_LIMIT_EXCEEDED (Failed because we reached the sending queue limit)';

export class AndroidPhoneDouble {
  readonly deviceId = 'ffffffff3b1c4e5a7d2';
  readonly messages = new Map<string, PhoneMessage>();
  /** POST /messages per id, 409s included: the at-most-once tests count these. */
  readonly posts = new Map<string, number>();
  readonly webhooks: Webhook[] = [];
  readonly webhookDeliveries: { url: string; status: number }[] = [];
  /** Every request's method and path. */
  readonly requests: { method: string; path: string }[] = [];
  batteryLevel = 87;
  /** How many SIM cards GET /device lists (slots 1…n; the app's Device.simCards). */
  simCardCount = 1;
  /** What PATCH /settings set as webhooks.signing_key; posts are signed while it is set. */
  signingKey: string | undefined;
  /** How far the phone's clock is off ours, seconds (its X-Timestamp follows it). */
  clockSkewSeconds = 0;
  /** The app's release takes `mmsMessage` (branch "mms/extended-support"); off: one before it. */
  takesMms = false;
  /** The app's version, as GET /health answers it: an update changes it. */
  appVersion = '1.40.0';
  /** Held POSTs: the phone stores the message, then answers only when released (a hand-over cut short). */
  holdPosts = false;
  /**
   * Requests reach nothing (Wi-Fi dropping packets, the app frozen): every connection is taken and
   * never answered, and nothing is stored. Off again, the phone answers as before.
   */
  unresponsive = false;
  private readonly heldResponses: (() => void)[] = [];
  private readonly inbox: PhoneInboxMessage[] = [];
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  private port = 0;

  constructor(
    readonly username = 'sms',
    readonly password = `pw-${randomBytes(6).toString('hex')}`,
    /** The phone's own UTC offset in minutes (dates carry it). */
    private readonly offsetMinutes = 120,
  ) {}

  async start(port = 0): Promise<number> {
    const server = createServer((request, response) => void this.handle(request, response));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  /** The URL our gateway is given: http://user:password@127.0.0.1:port */
  urlWithCredentials(port: number): string {
    return `http://${this.username}:${this.password}@127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * The cable is pulled (adb drops the forward) or the phone left the Wi-Fi: the port stops
   * listening and every open connection is cut.
   */
  async unplug(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.port = (server.address() as AddressInfo).port;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }

  /** Back on the same port. */
  async plugIn(): Promise<void> {
    await this.start(this.port);
  }

  releaseHeldPosts(): void {
    for (const release of this.heldResponses.splice(0)) release();
  }

  heldPostCount(): number {
    return this.heldResponses.length;
  }

  /** What the phone's SMS stack did with one recipient; webhooks registered for it are posted. */
  async advance(
    id: string,
    state: 'Processed' | 'Sent' | 'Delivered' | 'Failed',
    error?: string,
  ): Promise<void> {
    const message = this.messages.get(id);
    if (!message) throw new Error(`the phone has no message ${id}`);
    const now = Date.now();
    for (const recipient of message.recipients) {
      recipient.state = state;
      if (error) recipient.error = error;
    }
    message.state = state;
    message.states[state] = now;
    const event = { Sent: 'sms:sent', Delivered: 'sms:delivered', Failed: 'sms:failed' }[state as string];
    if (!event) return;
    for (const recipient of message.recipients) {
      const payload: Record<string, unknown> = {
        messageId: id,
        recipient: recipient.phoneNumber,
        phoneNumber: recipient.phoneNumber,
        ...(message.simNumber === undefined ? {} : { simNumber: message.simNumber }),
      };
      if (state === 'Sent') Object.assign(payload, { partsCount: 1, sentAt: this.date(now) });
      if (state === 'Delivered') payload.deliveredAt = this.date(now);
      if (state === 'Failed') Object.assign(payload, { failedAt: this.date(now), reason: error ?? '' });
      await this.emit(event, payload);
    }
  }

  /** A data SMS arrives: stored in the inbox (hex preview), posted to sms:data-received webhooks. */
  async receiveData(sender: string, bytes: Uint8Array, simNumber = 1): Promise<void> {
    const createdAt = Date.now();
    const data = Buffer.from(bytes);
    const hash = javaStringHash(`${sender}|${createdAt}|${data.toString('hex')}`);
    const preview = data.subarray(0, 64).toString('hex') + (data.length > 64 ? '...' : '');
    this.inbox.push({ hash, type: 'DATA_SMS', sender, simNumber, content: preview, createdAt });
    await this.emit('sms:data-received', {
      messageId: (hash >>> 0).toString(16),
      sender,
      simNumber,
      phoneNumber: sender,
      data: data.toString('base64'),
      receivedAt: this.date(createdAt),
    });
  }

  /** An MMS notification arrives: in the inbox as MMS (subject as preview), posted to mms:received. */
  async receiveMms(sender: string, subject: string, size: number, simNumber = 1): Promise<void> {
    const createdAt = Date.now();
    const transactionId = randomBytes(8).toString('hex');
    const hash = javaStringHash(`${sender}|${createdAt}|${transactionId}`);
    this.inbox.push({ hash, type: 'MMS', sender, simNumber, content: subject, createdAt });
    await this.emit('mms:received', {
      messageId: transactionId,
      sender,
      simNumber,
      phoneNumber: sender,
      transactionId,
      subject,
      size,
      contentClass: 'text',
      receivedAt: this.date(createdAt),
    });
  }

  /**
   * An MMS finished downloading: in the inbox as MMS_DOWNLOADED (body, else subject, as preview),
   * posted to mms:downloaded with each part's bytes in Base64.
   */
  async receiveMmsDownloaded(
    sender: string,
    content: {
      subject?: string;
      body?: string;
      parts: { contentType: string; name?: string; bytes: Buffer }[];
    },
    simNumber = 1,
  ): Promise<void> {
    const createdAt = Date.now();
    const mmsId = Math.floor(Math.random() * 100_000);
    const hash = javaStringHash(`${sender}|${createdAt}|${mmsId}`);
    const preview = content.body ?? content.subject ?? 'MMS content';
    this.inbox.push({ hash, type: 'MMS_DOWNLOADED', sender, simNumber, content: preview, createdAt });
    await this.emit('mms:downloaded', {
      messageId: String(mmsId),
      sender,
      simNumber,
      phoneNumber: sender,
      ...(content.body === undefined ? {} : { body: content.body }),
      ...(content.subject === undefined ? {} : { subject: content.subject }),
      attachments: content.parts.map((part, index) => ({
        partId: mmsId * 10 + index,
        contentType: part.contentType,
        ...(part.name === undefined ? {} : { name: part.name }),
        size: part.bytes.length,
        data: part.bytes.toString('base64'),
      })),
      receivedAt: this.date(createdAt),
    });
  }

  /** An SMS arrives on the phone: stored in its inbox, posted to sms:received webhooks. */
  async receive(sender: string, text: string, simNumber = 1): Promise<void> {
    const createdAt = Date.now();
    const hash = javaStringHash(`${sender}|${createdAt}|${text}`);
    this.inbox.push({ hash, type: 'SMS', sender, simNumber, content: text, createdAt });
    await this.emit('sms:received', {
      messageId: (hash >>> 0).toString(16),
      sender,
      simNumber,
      phoneNumber: sender,
      message: text,
      receivedAt: this.date(createdAt),
    });
  }

  private async emit(event: string, payload: Record<string, unknown>): Promise<void> {
    for (const webhook of this.webhooks.filter((candidate) => candidate.event === event)) {
      const body = JSON.stringify({
        id: randomBytes(10).toString('hex'),
        webhookId: webhook.id,
        event,
        deviceId: this.deviceId,
        payload,
      });
      // Signed only with a signing key set in the app (plugins/PayloadSingingPlugin.kt).
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (this.signingKey !== undefined) {
        const timestamp = String(Math.floor(Date.now() / 1_000) + this.clockSkewSeconds);
        headers['X-Timestamp'] = timestamp;
        headers['X-Signature'] = createHmac('sha256', Buffer.from(this.signingKey, 'utf8'))
          .update(body + timestamp, 'utf8')
          .digest('hex');
      }
      const response = await fetch(webhook.url, { method: 'POST', headers, body }).catch(() => undefined);
      this.webhookDeliveries.push({ url: webhook.url, status: response?.status ?? 0 });
    }
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<undefined> {
    if (this.unresponsive) return;
    const url = new URL(request.url ?? '/', 'http://phone');
    const path = url.pathname.replace(/^\/(message|webhook)(?=\/|$)/, '/$1s');
    this.requests.push({ method: request.method ?? '', path: url.pathname });
    const body = await readBody(request);
    if (request.method === 'GET' && path === '/health') return this.json(response, 200, this.health());
    if (!this.authorized(request.headers.authorization)) {
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="Access to SMS Gateway", charset=UTF-8' });
      response.end();
      return;
    }
    const messageId = /^\/messages\/([^/]+)$/.exec(path)?.[1];
    const webhookId = /^\/webhooks\/([^/]+)$/.exec(path)?.[1];
    if (request.method === 'GET' && path === '/device') return this.json(response, 200, [this.device()]);
    if (request.method === 'POST' && path === '/messages') return this.postMessage(response, body);
    if (request.method === 'GET' && messageId)
      return this.getMessage(response, decodeURIComponent(messageId));
    if (request.method === 'DELETE' && messageId) return this.cancel(response, decodeURIComponent(messageId));
    if (request.method === 'GET' && path === '/inbox') return this.listInbox(response, url.searchParams);
    if (request.method === 'GET' && path === '/webhooks')
      return this.json(response, 200, this.webhooks.map(dto));
    if (request.method === 'POST' && path === '/webhooks') return this.addWebhook(response, body);
    if (request.method === 'PATCH' && path === '/settings') return this.patchSettings(response, body);
    if (request.method === 'DELETE' && webhookId) {
      const index = this.webhooks.findIndex((webhook) => webhook.id === webhookId);
      if (index >= 0) this.webhooks.splice(index, 1);
      response.writeHead(204);
      response.end();
      return;
    }
    response.writeHead(404);
    response.end();
  }

  private authorized(header: string | undefined): boolean {
    const expected = `Basic ${Buffer.from(`${this.username}:${this.password}`).toString('base64')}`;
    return header === expected;
  }

  private postMessage(response: ServerResponse, body: string): undefined {
    let request: Record<string, unknown>;
    try {
      request = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return this.json(response, 400, {
        message: 'Failed to convert request body to class PostMessageRequest',
      });
    }
    const textMessage = request.textMessage as { text?: string } | undefined;
    const dataMessage = request.dataMessage as { data?: string; port?: number } | undefined;
    const mmsMessage = this.takesMms ? (request.mmsMessage as Partial<PhoneMms> | undefined) : undefined;
    const phoneNumbers = request.phoneNumbers as string[] | undefined;
    const kinds = [textMessage, dataMessage, mmsMessage, request.message].filter(
      (kind) => kind !== undefined,
    );
    if (kinds.length === 0) {
      return this.json(response, 400, {
        message: this.takesMms
          ? 'Must specify exactly one of: textMessage, dataMessage, mmsMessage, or message'
          : 'Must specify exactly one of: textMessage, dataMessage, or message',
      });
    }
    if (kinds.length > 1) {
      return this.json(response, 400, { message: 'Cannot specify multiple message types simultaneously' });
    }
    const mmsProblem = mmsMessage && this.mmsProblem(mmsMessage);
    if (mmsProblem) return this.json(response, 400, { message: mmsProblem });
    if (!phoneNumbers || phoneNumbers.length === 0) {
      return this.json(response, 400, { message: 'Empty phone numbers list' });
    }
    const id = typeof request.id === 'string' ? request.id : randomBytes(10).toString('hex');
    this.posts.set(id, (this.posts.get(id) ?? 0) + 1);
    if (this.messages.has(id)) {
      return this.json(response, 409, { message: 'Message with the same ID already exists' });
    }
    const message: PhoneMessage = {
      id,
      phoneNumbers,
      withDeliveryReport: request.withDeliveryReport !== false,
      isEncrypted: request.isEncrypted === true,
      state: 'Pending',
      recipients: phoneNumbers.map((phoneNumber) => ({ phoneNumber, state: 'Pending' })),
      states: { Pending: Date.now() },
    };
    if (textMessage?.text !== undefined) message.textMessage = { text: textMessage.text };
    if (typeof request.message === 'string') message.textMessage = { text: request.message };
    if (dataMessage?.data !== undefined && dataMessage.port !== undefined) {
      message.dataMessage = { data: dataMessage.data, port: dataMessage.port };
    }
    if (mmsMessage) {
      message.mmsMessage = {
        ...(mmsMessage.subject ? { subject: mmsMessage.subject } : {}),
        ...(mmsMessage.text ? { text: mmsMessage.text } : {}),
        attachments: mmsMessage.attachments ?? [],
      };
    }
    if (typeof request.simNumber === 'number') message.simNumber = request.simNumber;
    this.messages.set(id, message);
    const answer = () => this.json(response, 202, this.view(message, true));
    if (this.holdPosts) this.heldResponses.push(answer);
    else answer();
  }

  /** PostMessageRequest.kt `validate`, the MMS part. */
  private mmsProblem(mms: Partial<PhoneMms>): string | undefined {
    const attachments = mms.attachments ?? [];
    if (attachments.length === 0 && !mms.text) return 'MMS message must have text or at least one attachment';
    for (const attachment of attachments) {
      if (!attachment.contentType?.trim()) return 'MMS attachment contentType cannot be empty';
      if (!attachment.data) return 'MMS attachment data cannot be empty';
      if (attachment.data.length > maxAttachmentBase64Length)
        return 'MMS attachment size exceeds the 2MB limit';
    }
    return undefined;
  }

  private getMessage(response: ServerResponse, id: string): undefined {
    const message = this.messages.get(id);
    if (!message) {
      response.writeHead(404);
      response.end();
      return;
    }
    this.json(response, 200, this.view(message, true));
  }

  private cancel(response: ServerResponse, id: string): undefined {
    const message = this.messages.get(id);
    if (!message) {
      response.writeHead(404);
      response.end();
      return;
    }
    if (message.state === 'Cancelled') return this.json(response, 200, this.view(message, false));
    if (message.state !== 'Pending') {
      return this.json(response, 400, { message: `Message ${id} is not in Pending state` });
    }
    message.state = 'Cancelled';
    message.states.Cancelled = Date.now();
    for (const recipient of message.recipients) recipient.state = 'Cancelled';
    this.json(response, 200, this.view(message, false));
  }

  private listInbox(response: ServerResponse, query: URLSearchParams): undefined {
    const limit = Number(query.get('limit') ?? 50);
    const offset = Number(query.get('offset') ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      return this.json(response, 400, { message: 'limit must be between 1 and 500' });
    }
    const fromRaw = query.get('from');
    const from = fromRaw === null ? 0 : Date.parse(fromRaw);
    if (Number.isNaN(from)) return this.json(response, 400, { message: 'Invalid from datetime' });
    const type = query.get('type') || undefined;
    const matching = this.inbox
      .filter((message) => message.createdAt >= from && (type === undefined || message.type === type))
      .sort((left, right) => right.createdAt - left.createdAt);
    response.setHeader('X-Total-Count', String(matching.length));
    this.json(
      response,
      200,
      matching.slice(offset, offset + limit).map((message) => ({
        id: `${{ SMS: 'text', DATA_SMS: 'data', MMS: 'mms-header', MMS_DOWNLOADED: 'mms' }[message.type]}:${message.hash}`,
        type: message.type,
        sender: message.sender,
        simNumber: message.simNumber,
        contentPreview: message.content,
        createdAt: this.date(message.createdAt),
        attachments: [],
      })),
    );
  }

  private patchSettings(response: ServerResponse, body: string): undefined {
    const settings = JSON.parse(body) as { webhooks?: { signing_key?: unknown } };
    const key = settings.webhooks?.signing_key;
    if (settings.webhooks && 'signing_key' in settings.webhooks) {
      this.signingKey = key === null || key === undefined ? undefined : String(key);
    }
    this.json(response, 200, {
      webhooks: { internet_required: true, retry_count: 15 },
    });
  }

  private addWebhook(response: ServerResponse, body: string): undefined {
    const request = JSON.parse(body) as { id?: string; url: string; event: string };
    const url = new URL(request.url);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && url.hostname === '127.0.0.1')) {
      return this.json(response, 400, { message: 'url must start with https:// or http://127.0.0.1' });
    }
    const webhook: Webhook = {
      id: request.id ?? randomBytes(10).toString('hex'),
      url: request.url,
      event: request.event,
    };
    const existing = this.webhooks.findIndex((candidate) => candidate.id === webhook.id);
    if (existing >= 0) this.webhooks.splice(existing, 1, webhook);
    else this.webhooks.push(webhook);
    this.json(response, 201, dto(webhook));
  }

  private view(message: PhoneMessage, includeContent: boolean): unknown {
    return {
      id: message.id,
      deviceId: this.deviceId,
      state: message.state,
      isHashed: false,
      isEncrypted: message.isEncrypted,
      ...(includeContent && message.textMessage ? { textMessage: message.textMessage } : {}),
      ...(includeContent && message.dataMessage ? { dataMessage: message.dataMessage } : {}),
      ...(includeContent && message.mmsMessage ? { mmsMessage: message.mmsMessage } : {}),
      recipients: message.recipients.map((recipient) => ({
        phoneNumber: recipient.phoneNumber,
        state: recipient.state,
        ...(recipient.error === undefined ? {} : { error: recipient.error }),
      })),
      states: Object.fromEntries(Object.entries(message.states).map(([state, at]) => [state, this.date(at)])),
    };
  }

  private health(): unknown {
    const check = (observedValue: number, observedUnit: string, description: string) => ({
      status: 'pass',
      observedValue,
      observedUnit,
      description,
    });
    return {
      status: 'pass',
      checks: {
        'battery:level': check(this.batteryLevel, 'percent', 'Battery level in percent'),
        'battery:charging': check(5, 'flags', 'Is the phone charging?'),
        'connection:status': check(1, 'boolean', 'Internet connection status'),
        'connection:transport': check(2, 'flags', 'Network transport type'),
        'connection:cellular': check(5, 'index', 'Cellular network type'),
      },
      version: this.appVersion,
      releaseId: 40000,
    };
  }

  private device(): unknown {
    const now = Date.now();
    return {
      id: this.deviceId,
      name: 'Google/oriole',
      createdAt: this.date(now - 86_400_000),
      updatedAt: this.date(now),
      lastSeen: this.date(now),
      simCards: Array.from({ length: this.simCardCount }, (_, slotIndex) => ({
        slotIndex,
        simNumber: slotIndex + 1,
        carrierName: slotIndex === 0 ? 'Vodafone' : 'O2',
      })),
    };
  }

  /** Gson's "yyyy-MM-dd'T'HH:mm:ss.SSSXXX" in the phone's own offset. */
  private date(epochMs: number): string {
    const shifted = new Date(epochMs + this.offsetMinutes * 60_000).toISOString().slice(0, 23);
    if (this.offsetMinutes === 0) return `${shifted}Z`;
    const sign = this.offsetMinutes > 0 ? '+' : '-';
    const minutes = Math.abs(this.offsetMinutes);
    return `${shifted}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  }

  /** Returns undefined so a handler can `return this.json(…)`. */
  private json(response: ServerResponse, status: number, body: unknown): undefined {
    response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    response.end(JSON.stringify(body));
  }
}

function dto(webhook: Webhook): unknown {
  return { id: webhook.id, url: webhook.url, event: webhook.event, source: 'Local' };
}

/** java.lang.String.hashCode: the phone's ids come from hashCode() values. */
function javaStringHash(text: string): number {
  let hash = 0;
  for (let index = 0; index < text.length; index++) hash = (Math.imul(31, hash) + text.charCodeAt(index)) | 0;
  return hash;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}
