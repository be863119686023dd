import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { type GatewayOptions, localUrlOf } from '../config/options.js';
import type { DeviceDirectory } from '../devices/pool/deviceDirectory.js';
import type { HttpExtension, HttpOptions, HttpServices } from '../doors/http/app.js';
import { defaultAllowedHosts } from '../doors/http/hostCheck.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { HealthService } from '../services/health/healthService.js';
import { createInboxReads } from '../services/inbox/inboxReads.js';
import type { WebhookRegistry } from '../services/webhooks/webhookRegistry.js';
import type { GatewayAuth } from './auth.js';
import type { CompositionContext } from './context.js';
import type { Messaging } from './messaging.js';
import type { StopList } from './stopList.js';

/** What the API serves, from the other steps' results (the test harness too). */
export function httpServicesFrom(
  context: Pick<CompositionContext, 'storage' | 'settings' | 'events' | 'logger' | 'clock'>,
  parts: {
    auth: GatewayAuth;
    messaging: Messaging;
    devices: DeviceDirectory;
    health: HealthService;
    webhooks: WebhookRegistry;
    extensions?: readonly HttpExtension[];
  },
): HttpServices {
  const { storage, settings } = context;
  return {
    messages: parts.messaging.messages,
    inbox: {
      reads: createInboxReads({ records: storage.inbox, apps: parts.auth.apps }),
      replay: parts.messaging.inboxReplay,
    },
    logs: storage.logs,
    devices: parts.devices,
    overdueReports: parts.messaging.overdueReports,
    events: context.events,
    accessControl: parts.auth.accessControl,
    settings,
    health: parts.health,
    tokens: parts.auth.tokens,
    staff: parts.auth.staff,
    login: parts.auth.login,
    apps: parts.auth.apps,
    smppLogins: parts.auth.smppLogins,
    quotas: parts.auth.quotas,
    usage: parts.auth.usage,
    clock: context.clock,
    audit: parts.auth.audit,
    recordChange: parts.auth.recordChange,
    webhooks: parts.webhooks,
    logger: context.logger,
    extensions: parts.extensions,
  };
}

/** The HTTP layer's options from the gateway's. */
export function httpOptionsFrom(options: GatewayOptions, version: string): HttpOptions {
  return {
    allowedHosts: allowedHostsFor(options),
    corsOrigins: options.corsOrigins,
    uiDirectory: options.uiDirectory,
    maxPendingMessages: options.maxPendingMessages,
    version,
  };
}

/** The intended defaults (on 0.0.0.0 or ::, the machine's names and addresses) plus the user's. */
function allowedHostsFor(options: GatewayOptions): string[] {
  return [...new Set([...defaultAllowedHosts(options.listen.host), ...options.allowedHosts])];
}

export interface Serving {
  port: number;
  /** Where a local client reaches the API. */
  url: string;
}

/**
 * The app listens (the API answers only once everything below runs), and is
 * the first thing closed, live event streams included.
 */
export async function serveHttp(
  app: Koa,
  address: GatewayOptions['listen'],
  stops: StopList,
): Promise<Serving> {
  const server = await listen(createServer(app.callback()), address);
  stops.add(() => closeServer(server));
  const { port } = server.address() as AddressInfo;
  return { port, url: localUrlOf({ host: address.host, port }) };
}

function listen(server: Server, address: GatewayOptions['listen']): Promise<Server> {
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => reject(listenError(error, address));
    server.once('error', refused);
    server.listen(address.port, address.host, () => {
      server.off('error', refused);
      resolve(server);
    });
  });
}

/** A refused port gets its own code: the desktop app offers another port for these two. */
export function listenError(error: NodeJS.ErrnoException, { host, port }: GatewayOptions['listen']): Error {
  const options = { field: 'listen', cause: error };
  if (error.code === 'EADDRINUSE') {
    return new GatewayError(ErrorCode.PortInUse, `port ${port} on ${host} is already in use`, options);
  }
  if (error.code === 'EACCES') {
    // Windows answers EACCES for ports inside its excluded ranges (Hyper-V, WSL, Docker reserve
    // them: `netsh interface ipv4 show excludedportrange protocol=tcp`), POSIX for ports < 1024.
    return new GatewayError(
      ErrorCode.PortForbidden,
      `the system does not allow listening on port ${port}`,
      options,
    );
  }
  return error;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Live event streams never end on their own.
    server.closeAllConnections();
  });
}
