/**
 * CONTRACT DOUBLE of the device-facing API (`/mobile/v1`) of the SMS Gateway private server,
 * android-sms-gateway/server. The Go server itself cannot be built on these machines (its Go
 * modules are not reachable), so fleet-mode tests run against this node:http double, written
 * from upstream's handlers and DTOs field for field. Each route cites the upstream file it
 * follows; the DTOs are client-go `smsgateway/requests_mobile.go`, `responses_mobile.go`,
 * `domain_messages.go` and `domain_upstream.go`. It keeps only what the device API exposes;
 * what the server does behind its third-party API (device choice, users) is reduced to what
 * the tests need, and said so where it is.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** `smsgateway.ProcessingState` (domain_messages.go `allProcessStates`). */
const processingStates = ['Pending', 'Processed', 'Sent', 'Delivered', 'Failed'] as const;
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

export interface DoubleDevice {
  id: string;
  token: string;
  userId: string;
  name?: string;
  pushToken: string | null;
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
  /** Counts of requests by "METHOD /path" (path below the base). */
  readonly requests: ReadonlyMap<string, number>;
  /** Open SSE connections of a device. */
  openStreams(deviceId: string): number;
  /**
   * Off: the route answers 503 while the rest of the API keeps answering (SSE cut by a proxy,
   * a database hiccup on PATCH). Turning GET /events off also closes the open streams.
   */
  setRouteAvailable(route: 'GET /events' | 'PATCH /message', available: boolean): void;
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
  const requests = new Map<string, number>();
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
    // modules/sse/service.go handleStream: "event: <type>\ndata: <json>\n\n".
    for (const stream of streams.get(deviceId) ?? [])
      stream.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  };

  /** handlers/converters/messages.go MessageToMobileDTO. */
  const toMobileMessage = (message: DoubleMessage) => ({
    id: message.id,
    deviceId: '',
    ...(message.text !== undefined ? { message: message.text, textMessage: { text: message.text } } : {}),
    ...(message.data ? { dataMessage: message.data } : {}),
    phoneNumbers: message.phoneNumbers,
    ...(message.isEncrypted ? { isEncrypted: true } : {}),
    ...(message.simNumber !== undefined ? { simNumber: message.simNumber } : {}),
    ...(message.withDeliveryReport !== undefined ? { withDeliveryReport: message.withDeliveryReport } : {}),
    ...(message.priority !== 0 ? { priority: message.priority } : {}),
    ...(message.ttl !== undefined ? { ttl: message.ttl } : {}),
    ...(message.validUntil !== undefined ? { validUntil: message.validUntil } : {}),
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
      const body = (await readBody(request)) as { name?: unknown; pushToken?: unknown } | undefined;
      // smsgateway.MobileRegisterRequest: name max 128, pushToken max 256, both optional.
      if (!body || typeof body !== 'object') return fail(response, 400, 'failed to parse body');
      if (body.name !== undefined && (typeof body.name !== 'string' || body.name.length > 128)) {
        return fail(response, 400, 'failed to validate: name');
      }
      if (body.pushToken != null && (typeof body.pushToken !== 'string' || body.pushToken.length > 256)) {
        return fail(response, 400, 'failed to validate: pushToken');
      }
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

    // handlers/messages/mobile.go list (also mounted at /messages): Pending for this device,
    // `order` lifo (default) or fifo (messages/params.go mobileGetQueryParams).
    if (key === 'GET /message' || key === 'GET /messages') {
      const order = url.searchParams.get('order') ?? 'lifo';
      if (order !== 'lifo' && order !== 'fifo') return fail(response, 400, 'failed to validate: order');
      const pending = messages.filter(
        (message) => message.deviceId === device.id && message.state === 'Pending',
      );
      if (order === 'lifo') pending.reverse();
      return json(response, 200, pending.map(toMobileMessage));
    }

    // handlers/messages/mobile.go patch: []smsgateway.MobilePatchMessageItem, validated as a
    // whole (400), then applied in order; an unknown id is skipped; Pending becomes Processed
    // (modules/messages/service.go UpdateState). Answers 204.
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
    requests,
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
