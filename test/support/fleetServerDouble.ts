/**
 * CONTRACT DOUBLE of the device-facing API (`/mobile/v1`) of the SMS Gateway private server,
 * android-sms-gateway/server. The Go server itself cannot be built on these machines (its Go
 * modules are not reachable), so fleet-mode tests run against this node:http double, written
 * from upstream's handlers and DTOs field for field. Each route cites the upstream file it
 * follows; the DTOs are client-go `smsgateway/requests_mobile.go`, `responses_mobile.go`,
 * `domain_messages.go`, `domain_devices.go` and `domain_upstream.go`. It keeps only what the
 * device API exposes; what the server does behind its third-party API (device choice, users,
 * cancel, inbox refresh) is reduced to what the tests need, and said so where it is.
 *
 * Read from android-sms-gateway/server at 22074dda6adc71414a00c3457ee057e4fdde510f (v1.47.1,
 * whose go.mod takes client-go v1.14.5). The client-go snapshot has no v1.14 tag: the
 * cancellation DTOs (`Cancelling`/`Cancelled`, `MobileMessage.state`, `MessageCancelled`) are
 * read from client-go 2e68df02b7c850b24cbf505ac58c9b3b57ca09ce (branch
 * client/message-cancel-support, PR 56), the rest from its master 9b59987638c2d03ae14f39fc4314d1f8e8ba108f.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * `smsgateway.ProcessingState` (client-go domain_messages.go `allProcessStates`); the server
 * stores the same seven since server 1.45 (models/migrations/mysql/
 * 20260617000000_add_cancelled_message_state.sql).
 */
const processingStates = [
  'Pending',
  'Cancelling',
  'Cancelled',
  'Processed',
  'Sent',
  'Delivered',
  'Failed',
] as const;
type ProcessingState = (typeof processingStates)[number];

export interface DoubleRecipient {
  phoneNumber: string;
  state: ProcessingState;
  error?: string;
}

/** A message as the server stores it for one device (modules/messages models.go, reduced). */
export interface DoubleMessage {
  id: string;
  deviceId: string;
  text?: string;
  data?: { data: string; port: number };
  /** modules/messages MmsMessageContent (models/migrations …_mms_messages_support.sql: type Mms). */
  mms?: DoubleMms;
  phoneNumbers: string[];
  simNumber?: number;
  withDeliveryReport?: boolean;
  isEncrypted: boolean;
  priority: number;
  ttl?: number;
  validUntil?: string;
  createdAt: string;
  state: ProcessingState;
  recipients: DoubleRecipient[];
  states: Record<string, string>;
}

export interface DoubleMms {
  subject?: string;
  text?: string;
  attachments?: { contentType: string; name?: string; data: string }[];
}

/** `smsgateway.SimCard` (client-go domain_devices.go): the optional strings are omitted when null. */
export interface DoubleSimCard {
  slotIndex: number;
  simNumber: number;
  phoneNumber?: string;
  carrierName?: string;
  iccid?: string;
}

export interface DoubleDevice {
  id: string;
  token: string;
  userId: string;
  name?: string;
  pushToken: string | null;
  /** modules/devices domain.go `SimCards`, as the last POST or PATCH /device gave them. */
  simCards: DoubleSimCard[];
}

/** One PATCH /device body as the double received it (`smsgateway.MobileUpdateRequest`). */
export interface ReceivedDeviceUpdate {
  deviceId: string;
  body: { id?: unknown; pushToken?: unknown; simCards?: unknown };
}

/** One element of a PATCH /message body as the double received it, with who sent it. */
export interface ReceivedPatch {
  deviceId: string;
  item: { id: string; state: string; recipients: DoubleRecipient[]; states: Record<string, string> };
}

export interface FleetServerDouble {
  /** The device API base the gateway is given, e.g. http://127.0.0.1:40000/api/mobile/v1. */
  readonly baseUrl: string;
  readonly serverKey: string;
  readonly devices: readonly DoubleDevice[];
  readonly patches: readonly ReceivedPatch[];
  /** Every PATCH /device body, in arrival order. */
  readonly deviceUpdates: readonly ReceivedDeviceUpdate[];
  /** Counts of requests by "METHOD /path" (path below the base). */
  readonly requests: ReadonlyMap<string, number>;
  /** The `order` of every GET /message, in arrival order ("(none)" when not given). */
  readonly pullOrders: readonly string[];
  /** Open SSE connections of a device. */
  openStreams(deviceId: string): number;
  /**
   * Off: the route answers 503 while the rest of the API keeps answering (SSE cut by a proxy,
   * a database hiccup on PATCH). Turning GET /events off also closes the open streams.
   */
  setRouteAvailable(route: 'GET /events' | 'PATCH /message' | 'PATCH /device', available: boolean): void;
  addUser(login: string, password: string): void;
  /** What `GET /mobile/v1/user/code` would give `login` (also reachable over HTTP). */
  issueCode(login: string): string;
  /**
   * The third-party side, reduced: stores a message for one of the user's devices (the named
   * one, else the next in turn — upstream picks any; a fixed turn keeps tests deterministic)
   * and notifies it over SSE like `events.NewMessageEnqueuedEvent`.
   */
  enqueue(message: {
    id?: string;
    text?: string;
    mms?: DoubleMms;
    phoneNumbers: string[];
    withDeliveryReport?: boolean;
    simNumber?: number;
    deviceId?: string;
    userId?: string;
    /** Do not announce it on the events stream (the device must find it by polling). */
    silent?: boolean;
  }): DoubleMessage;
  message(id: string): DoubleMessage | undefined;
  /**
   * The third-party `DELETE /3rdparty/v1/messages/{id}`, reduced (modules/messages/service.go
   * CancelMessage, repository.go CancelMessage): only a Pending message becomes Cancelling —
   * anything else throws "message is not pending" — and its device is sent
   * `events.NewMessageCancelledEvent` unless `silent`.
   */
  cancel(id: string, options?: { silent?: boolean }): DoubleMessage;
  /**
   * The third-party `POST /3rdparty/v1/inbox/refresh`, reduced (handlers/inbox/3rdparty.go →
   * inbox/service.go Refresh): `events.NewMessagesExportRequestedEvent` to one device.
   */
  requestExport(
    deviceId: string,
    request: {
      since: Date;
      until: Date;
      messageTypes?: string[];
      /** client-go `WebhookDelivery`: Disabled, Individual or Batch. */
      webhookDelivery: string;
    },
  ): void;
  /**
   * The user's webhooks (handlers/webhooks/3rdparty.go stores them; `smsgateway.Webhook`), then
   * `events.NewWebhooksUpdatedEvent` to the user's devices. `setSettings` likewise stores the
   * user's `smsgateway.DeviceSettings` and sends `events.NewSettingsUpdatedEvent`.
   */
  setSettings(userId: string, settings: Record<string, Record<string, unknown>>): void;
  setWebhooks(
    userId: string,
    webhooks: { id: string; url: string; event: string; deviceId?: string }[],
  ): void;
  /** Stops answering: closes the listener and every connection (the server is down). */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

const deviceIdLength = 21;
const alphabet = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

/** `nanoid.Standard(21)` as upstream makes ids (handlers/mobile.go idGen). */
function nanoid(length = deviceIdLength): string {
  return [...randomBytes(length)].map((byte) => alphabet[byte & 63]).join('');
}

export async function startFleetServerDouble(
  options: { serverKey?: string } = {},
): Promise<FleetServerDouble> {
  const serverKey = options.serverKey ?? `server-key-${nanoid(8)}`;
  const users = new Map<string, string>();
  const codes = new Map<string, string>();
  const devices: DoubleDevice[] = [];
  const messages: DoubleMessage[] = [];
  const patches: ReceivedPatch[] = [];
  const deviceUpdates: ReceivedDeviceUpdate[] = [];
  const requests = new Map<string, number>();
  const pullOrders: string[] = [];
  const streams = new Map<string, Set<ServerResponse>>();
  const sockets = new Set<Socket>();
  let turn = 0;
  const settingsByUser = new Map<string, Record<string, Record<string, unknown>>>();
  const webhooksByUser = new Map<string, { id: string; url: string; event: string; deviceId?: string }[]>();
  const unavailable = new Set<string>();
  let port = 0;
  let server: Server | undefined;
  const base = '/api/mobile/v1';

  const json = (response: ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) {
      response.writeHead(status).end();
      return;
    }
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  /** `smsgateway.ErrorResponse` ({message}), what fiber's error handler answers upstream. */
  const fail = (response: ServerResponse, status: number, message: string) =>
    json(response, status, { message });

  const readBody = async (request: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (text === '') return undefined;
    return JSON.parse(text) as unknown;
  };

  /** handlers/middlewares/userauth/userauth.go NewBasic and NewCode: the user, or 401. */
  const userOf = (authorization: string): string | 'invalid' | undefined => {
    if (/^basic /i.test(authorization)) {
      const [login, password] = Buffer.from(authorization.slice(6), 'base64')
        .toString('utf8')
        .split(/:(.*)/s);
      return login !== undefined && users.get(login) === password ? login : 'invalid';
    }
    if (/^code /i.test(authorization)) {
      const login = codes.get(authorization.slice(5));
      if (!login) return 'invalid';
      codes.delete(authorization.slice(5));
      return login;
    }
    return undefined;
  };

  /** handlers/middlewares/deviceauth/deviceauth.go: `Bearer <device token>`. */
  const deviceOf = (authorization: string): DoubleDevice | undefined => {
    if (!/^bearer /i.test(authorization)) return undefined;
    const token = authorization.slice(7);
    return devices.find((device) => device.token === token);
  };

  const notify = (deviceId: string, type: string, data: Record<string, string> | null = null) => {
    // modules/sse/service.go handleStream: "event: <type>\ndata: <json>\n\n", the JSON being
    // Send's marshalled `map[string]string` — `null` for an event without data.
    for (const stream of streams.get(deviceId) ?? [])
      stream.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  };

  /**
   * handlers/converters/messages.go MessageToMobileDTO; `deviceId` is set to "" there, which
   * `json:"deviceId,omitempty"` drops, and `state` (no omitempty) is Pending or Cancelling.
   */
  const toMobileMessage = (message: DoubleMessage) => ({
    id: message.id,
    ...(message.text !== undefined ? { message: message.text, textMessage: { text: message.text } } : {}),
    ...(message.data ? { dataMessage: message.data } : {}),
    // MobileMessageDTO: the MMS is the top-level `mmsMessage` (client-go's `message` is
    // omitempty, so the empty text of an MMS is left out).
    ...(message.mms ? { mmsMessage: message.mms } : {}),
    phoneNumbers: message.phoneNumbers,
    ...(message.isEncrypted ? { isEncrypted: true } : {}),
    ...(message.simNumber !== undefined ? { simNumber: message.simNumber } : {}),
    ...(message.withDeliveryReport !== undefined ? { withDeliveryReport: message.withDeliveryReport } : {}),
    ...(message.priority !== 0 ? { priority: message.priority } : {}),
    ...(message.ttl !== undefined ? { ttl: message.ttl } : {}),
    ...(message.validUntil !== undefined ? { validUntil: message.validUntil } : {}),
    state: message.state,
    createdAt: message.createdAt,
  });

  const routes = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://double');
    if (!url.pathname.startsWith(base)) return fail(response, 404, 'Cannot find route');
    const path = url.pathname.slice(base.length).replace(/\/$/, '') || '/';
    const key = `${request.method} ${path}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    const authorization = request.headers.authorization ?? '';
    if (unavailable.has(key)) return fail(response, 503, 'Service Unavailable');

    // handlers/mobile.go postDevice: userauth.NewBasic, userauth.NewCode, then keyauth with the
    // server key unless a user is authenticated (private mode: not public).
    if (key === 'POST /device') {
      const user = userOf(authorization);
      if (user === 'invalid') return fail(response, 401, 'Unauthorized');
      if (user === undefined && authorization !== `Bearer ${serverKey}`) {
        return fail(response, 401, 'Invalid or expired API Key');
      }
      const body = (await readBody(request)) as
        | { name?: unknown; pushToken?: unknown; simCards?: unknown }
        | undefined;
      // smsgateway.MobileRegisterRequest: name max 128, pushToken max 256, simCards, all optional.
      if (!body || typeof body !== 'object') return fail(response, 400, 'failed to parse body');
      if (body.name !== undefined && (typeof body.name !== 'string' || body.name.length > 128)) {
        return fail(response, 400, 'failed to validate: name');
      }
      if (body.pushToken != null && (typeof body.pushToken !== 'string' || body.pushToken.length > 256)) {
        return fail(response, 400, 'failed to validate: pushToken');
      }
      const simCards = simCardsOf(body.simCards);
      if (!simCards) return fail(response, 400, 'failed to parse body');
      let userId = user;
      let password: string | undefined;
      if (userId === undefined) {
        // New user: login = first 6 of an id uppercased, password = rest lowercased.
        const id = nanoid();
        userId = id.slice(0, 6).toUpperCase();
        password = id.slice(7).toLowerCase();
        users.set(userId, password);
      }
      const device: DoubleDevice = {
        id: nanoid(),
        token: nanoid(),
        userId,
        ...(typeof body.name === 'string' ? { name: body.name } : {}),
        pushToken: typeof body.pushToken === 'string' ? body.pushToken : null,
        simCards,
      };
      devices.push(device);
      // smsgateway.MobileRegisterResponse: password omitted for an existing user.
      return json(response, 201, {
        id: device.id,
        token: device.token,
        login: userId,
        ...(password ? { password } : {}),
      });
    }

    // handlers/mobile.go getUserCode: Basic user required → smsgateway.MobileUserCodeResponse.
    if (key === 'GET /user/code') {
      const user = userOf(authorization);
      if (user === undefined || user === 'invalid') return fail(response, 401, 'Unauthorized');
      const code = issueCode(user);
      return json(response, 200, { code, validUntil: new Date(Date.now() + 5 * 60_000).toISOString() });
    }

    const device = deviceOf(authorization);
    // handlers/mobile.go getDevice: works without a device (device omitted).
    if (key === 'GET /device') {
      return json(response, 200, {
        ...(device ? { device: { id: device.id, name: device.name ?? '' } } : {}),
        externalIp: request.socket.remoteAddress ?? '',
      });
    }
    // deviceauth.DeviceRequired for everything below.
    if (!device) return fail(response, 401, 'Unauthorized');

    // handlers/mobile.go patchDevice: smsgateway.MobileUpdateRequest; another device's id → 403;
    // an empty pushToken leaves it (lo.EmptyableToPtr). simCardsToDomain maps with lo.Map, which
    // never yields nil, so devices/repository.go Update replaces the SIM cards on every PATCH —
    // with none when the body has none. Answers 204.
    if (key === 'PATCH /device') {
      const body = (await readBody(request).catch(() => undefined)) as
        | ReceivedDeviceUpdate['body']
        | undefined;
      if (!body || typeof body !== 'object') return fail(response, 400, 'failed to parse body');
      if (body.pushToken != null && (typeof body.pushToken !== 'string' || body.pushToken.length > 256)) {
        return fail(response, 400, 'failed to validate: pushToken');
      }
      const simCards = simCardsOf(body.simCards);
      if (!simCards) return fail(response, 400, 'failed to parse body');
      deviceUpdates.push({ deviceId: device.id, body });
      if (body.id !== device.id) return fail(response, 403, 'Forbidden');
      if (typeof body.pushToken === 'string' && body.pushToken !== '') device.pushToken = body.pushToken;
      device.simCards = simCards;
      return json(response, 204);
    }

    // handlers/messages/mobile.go list (also mounted at /messages): Pending and Cancelling for
    // this device (messages/repository.go listPending), `order` lifo (default) or fifo
    // (messages/params.go mobileGetQueryParams).
    if (key === 'GET /message' || key === 'GET /messages') {
      const order = url.searchParams.get('order') ?? 'lifo';
      pullOrders.push(url.searchParams.get('order') ?? '(none)');
      if (order !== 'lifo' && order !== 'fifo') return fail(response, 400, 'failed to validate: order');
      const pending = messages.filter(
        (message) =>
          message.deviceId === device.id && (message.state === 'Pending' || message.state === 'Cancelling'),
      );
      if (order === 'lifo') pending.reverse();
      return json(response, 200, pending.map(toMobileMessage));
    }

    // handlers/messages/mobile.go patch: []smsgateway.MobilePatchMessageItem, validated as a
    // whole (400), then applied in order; an unknown id is skipped; Pending becomes Processed,
    // any other state is taken as the device says (modules/messages/service.go UpdateState).
    // Answers 204.
    if (key === 'PATCH /message' || key === 'PATCH /messages') {
      const body = await readBody(request).catch(() => undefined);
      const problem = patchProblem(body);
      if (problem) return fail(response, 400, problem);
      for (const item of body as ReceivedPatch['item'][]) {
        patches.push({ deviceId: device.id, item });
        const message = messages.find(
          (candidate) => candidate.id === item.id && candidate.deviceId === device.id,
        );
        if (!message) continue;
        message.state = item.state === 'Pending' ? 'Processed' : (item.state as ProcessingState);
        message.recipients = item.recipients;
        message.states = item.states ?? {};
      }
      return json(response, 204);
    }

    // handlers/settings/mobile.go get: the user's smsgateway.DeviceSettings.
    if (key === 'GET /settings') return json(response, 200, settingsByUser.get(device.userId) ?? {});

    // handlers/webhooks/mobile.go get: the user's webhooks for every device and for this one
    // (webhooks.WithDeviceID(device.ID, false)), as []smsgateway.Webhook.
    if (key === 'GET /webhooks') {
      const list = (webhooksByUser.get(device.userId) ?? []).filter(
        (webhook) => webhook.deviceId === undefined || webhook.deviceId === device.id,
      );
      return json(
        response,
        200,
        list.map((webhook) => ({ ...webhook, deviceId: webhook.deviceId ?? null })),
      );
    }

    // handlers/events/mobile.go get → modules/sse/service.go Handler.
    if (key === 'GET /events') {
      response.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'transfer-encoding': 'chunked',
      });
      response.flushHeaders();
      let set = streams.get(device.id);
      if (!set) {
        set = new Set();
        streams.set(device.id, set);
      }
      set.add(response);
      const keepalive = setInterval(() => response.write(':keepalive\n\n'), 15_000);
      request.on('close', () => {
        clearInterval(keepalive);
        set.delete(response);
      });
      return;
    }
    return fail(response, 404, 'Cannot find route');
  };

  const issueCode = (login: string): string => {
    const code = String(100_000 + (randomBytes(3).readUIntBE(0, 3) % 900_000));
    codes.set(code, login);
    return code;
  };

  const listen = async (): Promise<void> => {
    const created = createServer((request, response) => {
      routes(request, response).catch((error: unknown) => fail(response, 500, String(error)));
    });
    created.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => created.listen(port, '127.0.0.1', resolve));
    port = (created.address() as AddressInfo).port;
    server = created;
  };

  const down = async (): Promise<void> => {
    const current = server;
    server = undefined;
    if (!current) return;
    const closed = new Promise<void>((resolve) => current.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    streams.clear();
    await closed;
  };

  await listen();
  return {
    baseUrl: `http://127.0.0.1:${port}${base}`,
    serverKey,
    devices,
    patches,
    deviceUpdates,
    requests,
    pullOrders,
    openStreams: (deviceId) => streams.get(deviceId)?.size ?? 0,
    setRouteAvailable(route, available) {
      if (available) {
        unavailable.delete(route);
        return;
      }
      unavailable.add(route);
      if (route !== 'GET /events') return;
      for (const set of streams.values()) for (const stream of set) stream.destroy();
      streams.clear();
    },
    addUser: (login, password) => users.set(login, password),
    issueCode,
    enqueue(input) {
      const candidates = devices.filter((device) =>
        input.deviceId ? device.id === input.deviceId : input.userId ? device.userId === input.userId : true,
      );
      const device = candidates[turn++ % Math.max(1, candidates.length)];
      if (!device) throw new Error('the double has no device to give the message to');
      const createdAt = new Date().toISOString();
      const message: DoubleMessage = {
        id: input.id ?? nanoid(),
        deviceId: device.id,
        ...(input.text !== undefined ? { text: input.text } : {}),
        ...(input.mms ? { mms: input.mms } : {}),
        phoneNumbers: input.phoneNumbers,
        ...(input.simNumber !== undefined ? { simNumber: input.simNumber } : {}),
        ...(input.withDeliveryReport !== undefined ? { withDeliveryReport: input.withDeliveryReport } : {}),
        isEncrypted: false,
        priority: 0,
        createdAt,
        state: 'Pending',
        recipients: input.phoneNumbers.map((phoneNumber) => ({ phoneNumber, state: 'Pending' })),
        states: { Pending: createdAt },
      };
      messages.push(message);
      if (!input.silent) notify(device.id, 'MessageEnqueued');
      return message;
    },
    message: (id) => messages.find((message) => message.id === id),
    cancel(id, cancelOptions = {}) {
      const message = messages.find((candidate) => candidate.id === id);
      if (!message) throw new Error('message not found');
      if (message.state !== 'Pending') throw new Error('message is not pending');
      message.state = 'Cancelling';
      if (!cancelOptions.silent) notify(message.deviceId, 'MessageCancelled', { messageId: id });
      return message;
    },
    requestExport(deviceId, request) {
      // modules/events/events.go NewMessagesExportRequestedEvent: times as Go's time.RFC3339
      // (seconds, no fraction), types joined by commas only when given, and both the delivery
      // mode and the older boolean (as text) for apps that know only that.
      const rfc3339 = (time: Date) => time.toISOString().replace(/\.\d{3}Z$/, 'Z');
      notify(deviceId, 'MessagesExportRequested', {
        since: rfc3339(request.since),
        until: rfc3339(request.until),
        ...(request.messageTypes?.length ? { messageTypes: request.messageTypes.join(',') } : {}),
        webhookDelivery: request.webhookDelivery,
        triggerWebhooks: String(request.webhookDelivery !== 'Disabled'),
      });
    },
    setSettings(userId, settings) {
      settingsByUser.set(userId, settings);
      for (const device of devices) if (device.userId === userId) notify(device.id, 'SettingsUpdated');
    },
    setWebhooks(userId, webhooks) {
      webhooksByUser.set(userId, webhooks);
      for (const device of devices) if (device.userId === userId) notify(device.id, 'WebhooksUpdated');
    },
    down,
    up: listen,
    close: down,
  };
}

/**
 * `[]smsgateway.SimCard` as Go's JSON decoding takes it (no validation tags): undefined or null
 * is none, anything not shaped like the struct is a parse error (undefined here).
 */
function simCardsOf(value: unknown): DoubleSimCard[] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return undefined;
  const cards: DoubleSimCard[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { slotIndex = 0, simNumber = 0, ...optional } = item as Record<string, unknown>;
    if (!Number.isInteger(slotIndex) || !Number.isInteger(simNumber)) return undefined;
    const card: DoubleSimCard = { slotIndex: slotIndex as number, simNumber: simNumber as number };
    for (const name of ['phoneNumber', 'carrierName', 'iccid'] as const) {
      const field = optional[name];
      if (field != null && typeof field !== 'string') return undefined;
      if (typeof field === 'string') card[name] = field;
    }
    cards.push(card);
  }
  return cards;
}

/**
 * go-playground validation of smsgateway.MobilePatchMessageRequest: id required max 36; state
 * required; recipients required, min 1, each phoneNumber 1..128 and state required; states
 * keys must be processing states (MessageState.Validate).
 */
function patchProblem(body: unknown): string | undefined {
  if (!Array.isArray(body)) return 'failed to parse body';
  for (const [index, item] of body.entries()) {
    const at = `[${index}]`;
    if (typeof item !== 'object' || item === null) return `failed to validate: ${at}`;
    const { id, state, recipients, states } = item as Record<string, unknown>;
    if (typeof id !== 'string' || id === '' || id.length > 36) return `failed to validate: ${at}.id`;
    if (!processingStates.includes(state as ProcessingState)) return `failed to validate: ${at}.state`;
    if (!Array.isArray(recipients) || recipients.length === 0) return `failed to validate: ${at}.recipients`;
    for (const recipient of recipients as Record<string, unknown>[]) {
      const phone = recipient?.phoneNumber;
      if (typeof phone !== 'string' || phone.length < 1 || phone.length > 128) {
        return `failed to validate: ${at}.recipients.phoneNumber`;
      }
      if (!processingStates.includes(recipient.state as ProcessingState)) {
        return `failed to validate: ${at}.recipients.state`;
      }
      if (recipient.error !== undefined && typeof recipient.error !== 'string') {
        return `failed to validate: ${at}.recipients.error`;
      }
    }
    if (states !== undefined && states !== null) {
      if (typeof states !== 'object') return `failed to validate: ${at}.states`;
      for (const [name, time] of Object.entries(states)) {
        if (!processingStates.includes(name as ProcessingState)) return `invalid state value: ${name}`;
        if (typeof time !== 'string' || Number.isNaN(Date.parse(time)))
          return `failed to validate: ${at}.states`;
      }
    }
  }
  return undefined;
}
