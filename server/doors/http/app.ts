import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import type { Clock } from '../../clock/clock.js';
import type { DeviceDirectory } from '../../devices/pool/deviceDirectory.js';
import type { Logger } from '../../logging/logger.js';
import type { AccessControl } from '../../services/auth/accessControl.js';
import type { AppDirectory } from '../../services/auth/appDirectory.js';
import type { AppQuotas } from '../../services/auth/appQuotas.js';
import type { LoginChange } from '../../services/auth/loginChange.js';
import type { SmppLogins } from '../../services/auth/smppLogins.js';
import type { StaffDirectory } from '../../services/auth/staffDirectory.js';
import type { TokenService } from '../../services/auth/tokenService.js';
import type { EventBus } from '../../services/events/eventBus.js';
import type { HealthService } from '../../services/health/healthService.js';
import type { InboxReads } from '../../services/inbox/inboxReads.js';
import type { InboxReplay } from '../../services/inbox/inboxReplay.js';
import type { MessageService } from '../../services/messages/messageService.js';
import type { overdueReports } from '../../services/messages/overdueReports.js';
import type { SettingsService } from '../../services/settings/settingsService.js';
import type { WebhookRegistry } from '../../services/webhooks/webhookRegistry.js';
import type { AuditTrail } from '../../store/auditTrail.js';
import type { LogRepository } from '../../store/repositories.js';
import type { SqliteUsageCounts } from '../../store/usageCounts.js';
import { registerApiRoutes } from './apiRoutes.js';
import { cors } from './cors.js';
import { crossSiteGuard } from './crossSiteGuard.js';
import {
  type ApiBuilder,
  callerOf,
  extensionPrefix,
  jsonBodyTypes,
  type RouteChange,
  RouteTable,
} from './defineRoute.js';
import { docsContentSecurityPolicy, docsPageHtml } from './docsPage.js';
import { bodyParseError, errorMapper } from './errorMapper.js';
import { hostCheck } from './hostCheck.js';
import { SegmentedRouter } from './segmentedRouter.js';
import { staticUi, uiPrefix } from './staticUi.js';

/**
 * The API server as a Koa app, never listening itself (the composition root or a test calls
 * `listen`). Middleware order matters: errors are mapped first so everything below can throw;
 * the Host check runs before CORS and the body parser so a rebinding page learns nothing.
 */
export interface HttpOptions {
  /** Host names a request may name (see `defaultAllowedHosts`). */
  allowedHosts: readonly string[];
  /** Origins allowed to call the API from a browser page; empty: no CORS at all. */
  corsOrigins?: readonly string[];
  /** Largest JSON body accepted, in bytes (default 256 KiB); larger → 413. */
  bodyLimitBytes?: number;
  /** Built React UI served at /ui/; absent: no UI. */
  uiDirectory?: string;
  /** Most Pending messages at once; one more is refused with 503. */
  maxPendingMessages: number;
  /** From package.json, read once at start. */
  version: string;
}

/**
 * What the API serves, every part built by the composition root (server/composition/): the HTTP
 * layer builds no service of its own and sees the store only through these.
 */
export interface HttpServices {
  /** The one queue service (POST/GET/DELETE /messages); shared with the desk and fleet mode. */
  messages: MessageService;
  inbox: {
    /** Stored incoming messages as each caller sees them (GET /inbox). */
    reads: InboxReads;
    /** POST /inbox/refresh and the inbox export. */
    replay: InboxReplay;
  };
  /** GET /logs. */
  logs: Pick<LogRepository, 'list'>;
  devices: DeviceDirectory;
  /** Per device, the delivery reports overdue (GET /devices). */
  overdueReports(): ReturnType<typeof overdueReports>;
  events: EventBus;
  accessControl: AccessControl;
  settings: SettingsService;
  health: HealthService;
  tokens: TokenService;
  /** The people who sign in, and the audit trail of what they changed. */
  staff: StaffDirectory;
  /** A person's own new password. */
  login: Pick<LoginChange, 'changeOwnPassword'>;
  /** The apps with logins of their own, and their quotas. */
  apps: AppDirectory;
  /** The people's and apps' logins that fit an SMPP bind. */
  smppLogins: SmppLogins;
  quotas: AppQuotas;
  /** The default range of a usage report ends now. */
  clock: Clock;
  /** Messages, parts and failures per day and sender. */
  usage: Pick<SqliteUsageCounts, 'between'>;
  audit: Pick<AuditTrail, 'list' | 'firstActors'>;
  /** Told of every change made through the API (the audit trail's recorder). */
  recordChange?: (change: RouteChange) => void;
  webhooks: WebhookRegistry;
  logger: Logger;
  /**
   * Route modules whose dependencies only the composition root has (e.g. the /gateway/v1
   * extensions in routes/gatewayRoutes.ts): each registers on the same builder, so it gets the
   * same validation, access control and OpenAPI entry.
   */
  extensions?: readonly HttpExtension[];
}

export type HttpExtension = (api: ApiBuilder) => void;

/** The spec's mounts (docs/decisions.md#mounts): Local mode at the root, Cloud and Private bases. */
export const apiBases = ['', '/3rdparty/v1', '/api/3rdparty/v1'] as const;

export const defaultBodyLimitBytes = 256 * 1024;

/**
 * Bulk requests carry whole address books and spreadsheets (a 10,000-row campaign is about
 * 1 MB of JSON), and a phone's `mms:downloaded` carries every part of the MMS in Base64
 * (server/devices/phone/phoneWebhooks.ts): these paths take bodies up to `bulkBodyLimitBytes`.
 */
export const bulkBodyPaths: readonly string[] = [
  '/gateway/v1/contacts/import',
  '/gateway/v1/campaigns',
  '/gateway/v1/phone-hooks/',
];
export const bulkBodyLimitBytes = 16 * 1024 * 1024;

/** POST /message(s) at every base: an MMS carries its attachments, each up to 2 MiB of Base64. */
function postsMessage(ctx: Koa.Context): boolean {
  return ctx.method === 'POST' && /\/messages?$/.test(ctx.path);
}

export function createHttpApp(deps: HttpServices, options: HttpOptions): Koa {
  const logger = deps.logger.child('http');
  const routes = new RouteTable({
    accessControl: deps.accessControl,
    onChange: deps.recordChange,
    bases: apiBases,
    info: {
      title: 'Desktop SMS Gateway',
      version: options.version,
      description:
        'The SMS Gateway for Android HTTP interface (Local mode), served by a PC with GSM modems. ' +
        'Every route is served at the root, under /3rdparty/v1 and under /api/3rdparty/v1; ' +
        'singular aliases (/message, /device, /webhook) are listed per operation.',
      servers: apiBases,
    },
  });
  registerApiRoutes(routes, deps);

  const router = new SegmentedRouter([...apiBases, extensionPrefix.slice(0, -1)]);
  router.get('/', async (ctx) => {
    // A browser opening the address gets the UI, which has its own sign-in.
    if (options.uiDirectory && ctx.accepts('json', 'html') === 'html') {
      ctx.redirect(`${uiPrefix}/`);
      return;
    }
    // The app serves its root inside authentication, and Home Assistant's setup
    // (ha-android-sms-gateway api.py async_check_auth) tells a wrong password by this 401.
    await deps.accessControl.authenticate(callerOf(ctx), 'access');
    ctx.body = { status: 'ok', model: 'Desktop SMS Gateway', version: options.version, docs: '/docs' };
  });
  // Built on its first request, not at start: few clients ever read it, and converting every
  // route's schemas to JSON Schema costs start-up time and memory that an idle gateway keeps.
  let openApi: object | undefined;
  router.get('/docs/openapi.json', (ctx) => {
    openApi ??= routes.openApi();
    ctx.body = openApi;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', docsContentSecurityPolicy);
    ctx.body = docsPageHtml;
  });
  routes.mount(router);

  const app = new Koa({ proxy: false });
  // Before everything, so errors carry it too: no browser may guess a type for our answers.
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });
  app.use(errorMapper(logger));
  app.use(hostCheck(options.allowedHosts, logger));
  if (options.corsOrigins && options.corsOrigins.length > 0) app.use(cors(options.corsOrigins));
  app.use(crossSiteGuard(options.corsOrigins ?? []));
  if (options.uiDirectory) app.use(staticUi(options.uiDirectory));
  const jsonBody = (limitBytes: number) =>
    bodyParser({
      enableTypes: ['json'],
      extendTypes: { json: jsonBodyTypes },
      jsonLimit: `${limitBytes}b`,
      strict: true,
      onerror: (error) => {
        throw bodyParseError(error);
      },
    });
  const ordinaryBody = jsonBody(options.bodyLimitBytes ?? defaultBodyLimitBytes);
  const bulkBody = jsonBody(bulkBodyLimitBytes);
  app.use((ctx, next) =>
    (bulkBodyPaths.some((path) => ctx.path.startsWith(path)) || postsMessage(ctx) ? bulkBody : ordinaryBody)(
      ctx,
      next,
    ),
  );
  app.use(router.middleware());
  // Koa logs unhandled errors itself; ours are all handled by errorMapper, so silence duplicates.
  app.silent = true;
  return app;
}
