import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../server/clock/manualClock.js';
import { composeAuth } from '../../server/composition/auth.js';
import type { CompositionContext } from '../../server/composition/context.js';
import { composeHealth } from '../../server/composition/health.js';
import { httpServicesFrom, serveHttp } from '../../server/composition/http.js';
import { composeMessageRecords, composeMessaging } from '../../server/composition/messaging.js';
import { openOutbox } from '../../server/composition/outbox.js';
import { StopList } from '../../server/composition/stopList.js';
import { openGatewayStorage } from '../../server/composition/storage.js';
import { openWebhookRegistry } from '../../server/composition/webhooks.js';
import type { DeviceInfo } from '../../server/contract/domain/device.js';
import type { Scope } from '../../server/contract/domain/scopes.js';
import type { DeviceDirectory } from '../../server/devices/pool/deviceDirectory.js';
import type { OutboundModem } from '../../server/devices/pool/outboundModem.js';
import { createHttpApp, type HttpOptions, type HttpServices } from '../../server/doors/http/app.js';
import { type Logger, silentLogger } from '../../server/logging/logger.js';
import type { BasicCredentials } from '../../server/services/auth/credentials.js';
import type { TokenService } from '../../server/services/auth/tokenService.js';
import { EventBus } from '../../server/services/events/eventBus.js';
import { createFactAnnouncer } from '../../server/services/events/factAnnouncer.js';
import type { MessageLifecycle } from '../../server/services/messages/messageLifecycle.js';
import type { SettingsService } from '../../server/services/settings/settingsService.js';
import type { Storage } from '../../server/store/storage.js';

/**
 * A real gateway HTTP stack on 127.0.0.1:<random port>, built by the composition root's own steps
 * (server/composition/): the real Koa app, real storage in a temporary directory, real auth and
 * queue service. Only the modem pool is an in-memory directory (the API reads devices, it never
 * drives them), the scheduler is a counter of what it was told, and time is a ManualClock.
 */
export const basicUser = 'admin';
export const basicPassword = 'correct horse battery';
/** An Authorization header for HTTP Basic with these credentials. */
export function basicAuthFor(name: string, password: string): string {
  return `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
}

export const basicAuth = basicAuthFor(basicUser, basicPassword);

export interface HarnessResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed JSON body (undefined when the body is empty or not JSON). */
  body: unknown;
}

export interface RequestOptions {
  method?: string;
  /** JSON body (serialised) or a raw string sent as is. */
  json?: unknown;
  raw?: string;
  /** Authorization header; default Basic with the harness credentials; null: none. */
  authorization?: string | null;
  headers?: Record<string, string>;
}

/** The device directory the API sees: devices the test puts there, and what was asked of it. */
export class InMemoryDeviceDirectory implements DeviceDirectory {
  readonly devices = new Map<string, DeviceInfo>();
  readonly inboxRefreshes: (string | undefined)[] = [];

  add(device: DeviceInfo): void {
    this.devices.set(device.id, device);
  }
  list(): DeviceInfo[] {
    return [...this.devices.values()];
  }
  ids(): string[] {
    return [...this.devices.keys()];
  }
  get(id: string): DeviceInfo | undefined {
    return this.devices.get(id);
  }
  online(): OutboundModem[] {
    return [];
  }
  async forget(id: string): Promise<boolean> {
    return this.devices.delete(id);
  }
  async refreshInbox(deviceId?: string): Promise<void> {
    this.inboxRefreshes.push(deviceId);
  }
  async enterPin(): Promise<void> {}
  onChange(): () => void {
    return () => {};
  }
}

export function deviceInfo(
  id: string,
  overrides: Partial<DeviceInfo> = {},
  now = Date.UTC(2026, 0, 1),
): DeviceInfo {
  return {
    id,
    name: `Modem ${id}`,
    createdAt: now,
    updatedAt: now,
    lastSeen: now,
    simCards: [{ slotIndex: 0, simNumber: 1, carrierName: 'Test Net' }],
    modem: {
      port: `/dev/ttyUSB-${id}`,
      simulated: false,
      status: 'ready',
      signal: { rssi: 20, dbm: -73, bars: 3 },
      operator: 'Test Net',
      registration: 'home',
    },
    ...overrides,
  };
}

export interface HttpHarness {
  baseUrl: string;
  port: number;
  clock: ManualClock;
  storage: Storage;
  devices: InMemoryDeviceDirectory;
  events: EventBus;
  lifecycle: MessageLifecycle;
  settings: SettingsService;
  tokens: TokenService;
  credentials: BasicCredentials;
  /** How many times the API woke the scheduler. */
  wakeups: () => number;
  /** Whether the storage probe reports the data directory writable. */
  setStorageWritable(writable: boolean): void;
  request(path: string, options?: RequestOptions): Promise<HarnessResponse>;
  /** A Bearer header for a fresh access token holding exactly these scopes. */
  bearer(scopes: Scope[]): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions extends Partial<HttpOptions> {
  devices?: DeviceInfo[];
  /** The HTTP layer's logger (everything else stays silent). */
  logger?: Logger;
  extensions?: HttpServices['extensions'];
}

export async function startHttpHarness(options: HarnessOptions = {}): Promise<HttpHarness> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  const dataDir = await mkdtemp(join(tmpdir(), 'sms-gateway-http-'));
  const stops = new StopList();
  const { storage, settings } = await openGatewayStorage({
    dataDir,
    region: undefined,
    clock,
    logger: silentLogger,
    stops,
  });
  const events = new EventBus();
  const context: CompositionContext = {
    clock,
    logger: silentLogger,
    events,
    facts: createFactAnnouncer(storage.sqlite.commits, events),
    outbox: openOutbox({ storage, clock, logger: silentLogger, stops }),
    stops,
    storage,
    settings,
  };
  const { lifecycle } = composeMessageRecords(context);
  const devices = new InMemoryDeviceDirectory();
  for (const device of options.devices ?? [deviceInfo('modem-1', {}, clock.now())]) devices.add(device);
  const auth = await composeAuth(context, {
    login: {},
    throttle: { maxFailures: 5, windowMs: 5 * 60_000 },
    scryptCost: { N: 1_024, r: 8, p: 1 },
  });
  // Stored (not given as options) so that tests can change the login as the UI does.
  await auth.credentials.change(basicUser, basicPassword);
  const webhooks = await openWebhookRegistry(context);
  const maxPendingMessages = options.maxPendingMessages ?? 100;
  let storageWritable = true;
  const health = composeHealth(context, {
    devices,
    thresholds: {
      weakSignalDbm: -100,
      failedWarn: 1,
      failedFail: 50,
      queueWarn: Math.ceil(maxPendingMessages * 0.8),
    },
    maxPendingMessages,
    version: '1.2.3',
    storageWritable: async () => storageWritable && (await storage.checkWritable()),
  });
  // The queue service and the API log where the test asks; everything else stays silent.
  const httpContext = { ...context, logger: options.logger ?? silentLogger };
  let wakeups = 0;
  const messaging = composeMessaging(httpContext, {
    lifecycle,
    devices,
    scheduler: {
      enqueued: () => {
        wakeups++;
      },
      // No scheduler here: every queued message reads as waiting its turn.
      waitOf: (message) =>
        message.state === 'Pending' ? { reason: 'queued', detail: 'queued: no scheduler here' } : undefined,
    },
    quotas: auth.quotas,
    maxPendingMessages,
  });
  const { devices: _devices, logger: _logger, extensions, ...httpOptions } = options;
  const app = createHttpApp(
    httpServicesFrom(httpContext, {
      auth,
      messaging,
      devices,
      health,
      webhooks,
      extensions,
    }),
    {
      allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      maxPendingMessages,
      version: '1.2.3',
      ...httpOptions,
    },
  );
  const { port } = await serveHttp(app, { host: '127.0.0.1', port: 0 }, stops);

  const request = (path: string, requestOptions: RequestOptions = {}) => send(port, path, requestOptions);

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    clock,
    storage,
    devices,
    events: context.events,
    lifecycle,
    settings,
    tokens: auth.tokens,
    credentials: auth.credentials,
    wakeups: () => wakeups,
    setStorageWritable: (writable) => {
      storageWritable = writable;
    },
    request,
    async bearer(scopes) {
      const pair = await auth.tokens.issue(scopes);
      return `Bearer ${pair.accessToken}`;
    },
    async close() {
      await stops.stopAll(silentLogger);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function send(port: number, path: string, options: RequestOptions): Promise<HarnessResponse> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const authorization = options.authorization === undefined ? basicAuth : options.authorization;
  if (authorization !== null) headers.Authorization = authorization;
  let payload: string | undefined = options.raw;
  if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['Content-Type'] ??= 'application/json';
  }
  if (payload !== undefined) headers['Content-Length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers, setHost: !headers.Host },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, body });
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
