import { type Clock, systemClock } from './clock/clock.js';
import { composeAuth } from './composition/auth.js';
import { bridgeExtension } from './composition/bridges.js';
import type { CompositionContext } from './composition/context.js';
import { openOptOuts, startDesk } from './composition/desk.js';
import { composeFleet } from './composition/fleet.js';
import { gatewayExtensions } from './composition/gatewayApi.js';
import { composeHealth } from './composition/health.js';
import { httpOptionsFrom, httpServicesFrom, serveHttp } from './composition/http.js';
import { createGatewayLogging } from './composition/logging.js';
import { mcpExtension } from './composition/mcp.js';
import { composeMessageRecords, composeMessaging } from './composition/messaging.js';
import { metricsExtension } from './composition/metrics.js';
import { composeModemPool } from './composition/modemPool.js';
import { startModems } from './composition/modems.js';
import { composeModemOperations, openModemOperations } from './composition/operations.js';
import { openOutbox } from './composition/outbox.js';
import { readPackageVersion } from './composition/packageVersion.js';
import { openRouting } from './composition/routing.js';
import { composeScheduler } from './composition/scheduler.js';
import { openSendingPause } from './composition/sendingPause.js';
import { realSerialAccess } from './composition/serialAccess.js';
import { startSmpp, startSmppOutbox } from './composition/smpp.js';
import { startMailForwarding, startSmtp } from './composition/smtp.js';
import { StopList } from './composition/stopList.js';
import { openGatewayStorage } from './composition/storage.js';
import { composeVerifications } from './composition/verification.js';
import { openWebhookRegistry, startWebhookDispatcher } from './composition/webhooks.js';
import type { GatewayOptions } from './config/options.js';
import { gatewayCaller } from './contract/domain/caller.js';
import type { HiLinkAdapter } from './devices/hilink/hilinkDetection.js';
import type { PhoneTiming } from './devices/phone/phoneRegistry.js';
import type { ModemPool } from './devices/pool/modemPool.js';
import type { SerialAccess } from './devices/pool/serialModemSource.js';
import type { SimulatedModem } from './devices/simulator/simulatedModem.js';
import { createHttpApp } from './doors/http/app.js';
import { registerVerificationRoutes } from './doors/http/routes/verificationRoutes.js';
import { ErrorCode, GatewayError } from './errors/gatewayError.js';
import type { LogSink } from './logging/logger.js';
import type { LoginThrottleOptions } from './services/auth/loginThrottle.js';
import type { TokenService } from './services/auth/tokenService.js';
import { systemRegion } from './services/desk/systemRegion.js';
import { EventBus } from './services/events/eventBus.js';
import { createFactAnnouncer } from './services/events/factAnnouncer.js';
import type { HealthReport, HealthService } from './services/health/healthService.js';
import { overdueReports } from './services/messages/overdueReports.js';
import type { IncomingRule } from './services/webhooks/webhookAudience.js';
import { createNodePoster, type WebhookPoster } from './services/webhooks/webhookPoster.js';
import type { SchemaUpgrade } from './store/migrationBackup.js';
import { startRetention } from './store/retention.js';

/** The PC's own zone and language, for what the desktop shell shows its person. */
const localDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** What a host (CLI, Electron core process, tests, benchmarks) may inject. */
export interface GatewayDependencies {
  clock?: Clock;
  /** Where log records go besides the store and the live stream. Default: the console. */
  logSinks?: LogSink[];
  /** Serial ports; tests and benchmarks inject ptys. Default: node-serialport. */
  serial?: SerialAccess;
  webhookPoster?: WebhookPoster;
  /** Looks for a HiLink stick's network adapter. Default: this machine's interfaces. */
  detectHiLink?: () => HiLinkAdapter | undefined;
  /** Android phones' poll and retry intervals (tests shorten them). */
  phoneTiming?: PhoneTiming;
  /** Fleet mode's fetch interval while the server's events stream is down. Default 15 s. */
  fleetPollIntervalMs?: number;
  /**
   * How many failed logins lock a client and a user name out, and for how long (default 10 in
   * 5 min). Suites that refuse a wrong password on every route raise it: their clock stands still.
   */
  loginThrottle?: Pick<LoginThrottleOptions, 'maxFailures' | 'windowMs'>;
  /** Told before the database's schema is migrated (after its backup): the start waits for it. */
  onSchemaUpgrade?: (upgrade: SchemaUpgrade) => void;
}

export interface GatewayStarted {
  url: string;
  /** True when at least one modem is the built-in simulator. */
  simulated: boolean;
  username: string;
  /** Only on the run that generated the password: show it once. */
  generatedPassword?: string;
}

export interface Gateway {
  start(): Promise<GatewayStarted>;
  stop(): Promise<void>;
  readonly events: EventBus;
  /** The built-in simulated modems, for tests, benchmarks and the demo mode. */
  readonly simulatedModems: readonly SimulatedModem[];
  setSendingPaused(paused: boolean): void;
  readonly sendingPaused: boolean;
  /**
   * The desktop window's owner session while the owner is the only person; undefined once
   * there are others: then each signs in to the window as themselves.
   */
  windowSessionToken(): Promise<string | undefined>;
  /** The readiness report of GET /health (modems, queue, storage…), for the desktop tray. */
  healthReport(): Promise<HealthReport>;
  /** Every modem checks at once that it still answers: the PC woke from sleep. */
  recheckModems(): void;
  /** What needs a person beyond the readiness report: failing webhooks, missing delivery reports. */
  attention(): GatewayAttention;
}

/** The parts of one start that the `Gateway`'s methods reach. */
interface GatewayRun {
  /** A person's pause of sending, kept in the data directory; setting it wakes the scheduler. */
  sending: { paused(): boolean; setPaused(paused: boolean): Promise<void> };
  tokens: TokenService;
  /** Whether people other than the owner sign in. */
  onlyOwner(): boolean;
  health: HealthService;
  pool: ModemPool;
  attention(): GatewayAttention;
}

export interface GatewayAttention {
  webhookFailuresLastHour: number;
  /** The latest failure's error text (its webhook by id only: a URL may hold a secret). */
  lastWebhookError?: string;
  /** Sent messages that asked for a delivery report and have none after an hour. */
  overdueReports: number;
  /** SIMs at 80 % or more of a plan's cap, and those at it: one line each. */
  planCaps?: { near: string[]; reached: string[] };
}

/**
 * The one composition root: builds every part from the options and injected dependencies
 * through the steps of server/composition/: listeners (webhooks, desk, fleet) first, then
 * bottom-up what raises events (store → modems → scheduler), the HTTP API last; stops top-down.
 */
export function createGateway(options: GatewayOptions, deps: GatewayDependencies = {}): Gateway {
  const clock = deps.clock ?? systemClock;
  const events = new EventBus();
  const logging = createGatewayLogging({ options, sinks: deps.logSinks, events, clock });
  const { logger } = logging;
  const simulatedModems: SimulatedModem[] = [];
  const stops = new StopList();
  /** Set once stopping began: background work (probing, the simulator fallback) starts nothing new. */
  let stopping = false;
  /** What the host reaches of a start, published by `start` once all of it exists. */
  let run: GatewayRun | undefined;
  const notStarted = () => new GatewayError(ErrorCode.InvalidState, 'the gateway is not started');

  /**
   * The steps in order (server/composition/, ARCHITECTURE.md "The composition root"). Each
   * adds the stops of what it started, so a failed start stops only what had started.
   */
  const start = async (): Promise<GatewayStarted> => {
    const version = readPackageVersion();
    const { storage, settings } = await openGatewayStorage({
      dataDir: options.dataDir,
      threadIdleMs: options.dbThreadIdleMs,
      region: systemRegion(),
      onOpen: (opened) => {
        logging.keepIn(opened.logs);
        logger.info(`Desktop SMS Gateway ${version} starting`, { dataDir: options.dataDir });
      },
      ...(deps.onSchemaUpgrade ? { onSchemaUpgrade: deps.onSchemaUpgrade } : {}),
      clock,
      logger,
      stops,
    });
    const facts = createFactAnnouncer(storage.sqlite.commits, events);
    const outbox = openOutbox({ storage, clock, logger, stops });
    const context: CompositionContext = { clock, logger, events, facts, outbox, stops, storage, settings };
    const auth = await composeAuth(context, {
      login: { username: options.username, password: options.password },
      throttle: deps.loginThrottle,
    });
    const webhooks = await openWebhookRegistry(context);
    // `routing` is opened below, before anything can receive an SMS.
    const records = composeMessageRecords(context, (phoneNumber) => routing.lastAppTo(phoneNumber));
    const sendingPause = await openSendingPause(context);

    // The modems, built (not started) before the services that route work to them.
    const operationSettings = await openModemOperations(context);
    const serial = deps.serial ?? realSerialAccess(clock, logger);
    const modemPool = await composeModemPool(context, {
      options,
      serial,
      records,
      operations: operationSettings,
    });
    const { pool } = modemPool;
    const health = composeHealth(context, {
      devices: pool,
      refusedPorts: () => pool.refusedPorts(),
      thresholds: options.health,
      maxPendingMessages: options.maxPendingMessages,
      version,
    });

    // Everything that listens to events, before anything can raise one.
    const incomingFor: IncomingRule = (appId, origin) => auth.apps.hearsIncoming(appId, origin);
    const dispatcher = await startWebhookDispatcher(context, {
      registry: webhooks,
      health,
      post: deps.webhookPoster ?? createNodePoster(),
      devices: pool,
      incomingFor,
    });
    const smppOutbox = await startSmppOutbox(context, {
      hearsIncoming: incomingFor,
      receivingNumber: (deviceId, simNumber) =>
        pool.get(deviceId)?.simCards.find((sim) => sim.simNumber === simNumber)?.phoneNumber ??
        operationSettings.settings.settings(deviceId).ownNumber ??
        undefined,
    });
    const mailForwarding = await startMailForwarding(context);
    const optOuts = openOptOuts(context);
    const routing = await openRouting(context, { apps: auth.apps });
    const activeScheduler = composeScheduler(context, {
      options,
      paused: () => sendingPause.paused,
      lifecycle: records.lifecycle,
      devices: pool,
      optOuts: optOuts.list,
      routing: routing.scheduling,
    });
    routing.book.onChange(() => activeScheduler.wake());
    routing.plans.onChange(() => activeScheduler.wake());
    routing.planUsage.onReset(() => activeScheduler.wake());
    auth.apps.onChange(() => activeScheduler.wake());
    const sending: GatewayRun['sending'] = {
      paused: () => sendingPause.paused,
      setPaused: (value) => {
        const saved = sendingPause.set(value);
        activeScheduler.wake();
        return saved;
      },
    };
    run = {
      sending,
      tokens: auth.tokens,
      onlyOwner: () => auth.staff.list().length === 1,
      health,
      pool,
      attention: () => {
        const webhooks = dispatcher.status();
        let overdue = 0;
        for (const { count } of overdueReports(storage.messages, clock).values()) overdue += count;
        return {
          webhookFailuresLastHour: webhooks.failedLastHour,
          ...(webhooks.lastFailure ? { lastWebhookError: webhooks.lastFailure.error } : {}),
          overdueReports: overdue,
          planCaps: routing.planAlerts({
            modemName: (deviceId) => {
              const device = pool.get(deviceId);
              return device && `${device.name} (${device.modem.port})`;
            },
            localTime: (ms) => localDateTime.format(ms),
          }),
        };
      },
    };
    const messaging = composeMessaging(context, {
      lifecycle: records.lifecycle,
      devices: pool,
      scheduler: activeScheduler,
      quotas: auth.quotas,
      maxPendingMessages: options.maxPendingMessages,
    });
    const { messages } = messaging;
    const desk = await startDesk(context, {
      lifecycle: records.lifecycle,
      messages,
      optOuts,
    });
    const fleet = await composeFleet(context, {
      fleetServer: options.fleetServer,
      pollIntervalMs: deps.fleetPollIntervalMs,
      messages,
      webhooks,
      inboxReplay: messaging.inboxReplay,
      devices: pool,
    });

    // Then, bottom-up, what raises them: restored multipart parts may complete or time out at once.
    await records.inbox.start();
    stops.add(() => records.inbox.stop());
    pool.onChange((deviceId) => events.emit('device:updated', { deviceId }));
    pool.onRefusedPortsChange(() => events.emit('ports:refused-changed', {}));
    const operations = composeModemOperations(context, {
      pool,
      settings: operationSettings.settings,
      enqueue: (request) => messages.enqueue(request, gatewayCaller),
    });
    const modems = await startModems(context, {
      options,
      pool,
      serial,
      records,
      simulatedModems,
      detectHiLink: deps.detectHiLink,
      phoneTiming: deps.phoneTiming,
      stopping: () => stopping,
    });
    await activeScheduler.start();
    stops.add(() => activeScheduler.stop());
    stops.add(startRetention(context));
    operations.balanceWatch.start();
    stops.add(() => operations.balanceWatch.stop());
    await fleet.start();

    // The API last: it answers only once everything below runs.
    const extensions = gatewayExtensions(context, {
      version,
      serial,
      modemPool,
      modems,
      simulatedModems,
      operations,
      operationSettings: operationSettings.settings,
      messages,
      scheduler: activeScheduler,
      dispatcher,
      fleet,
      desk,
      login: auth.login,
      routing: { book: routing.book, operators: routing.operators },
      plans: { plans: routing.plans, usage: routing.planUsage },
      sending,
    });
    const smtp = startSmtp(context, {
      accessControl: auth.accessControl,
      messages,
      optOuts: optOuts.list,
      recordSubmission: auth.recordChange,
    });
    const smpp = startSmpp(context, {
      accessControl: auth.accessControl,
      messages,
      outbox: smppOutbox,
      recordSubmission: auth.recordChange,
    });
    extensions.push(bridgeExtension({ smtp, smpp, forwarding: mailForwarding }));
    const verifications = await composeVerifications(context, { messages });
    extensions.push((api) => registerVerificationRoutes(api, { verifications }));
    extensions.push(mcpExtension(context, { version, auth, messaging, devices: pool, verifications, desk }));
    extensions.push(
      metricsExtension(context, {
        scheduler: activeScheduler,
        devices: pool,
        plans: { plans: routing.plans, usage: routing.planUsage },
        smtp,
        smpp,
      }),
    );
    const app = createHttpApp(
      httpServicesFrom(context, {
        auth,
        messaging,
        devices: pool,
        health,
        webhooks,
        extensions,
      }),
      httpOptionsFrom(options, version),
    );
    const { port, url } = await serveHttp(app, options.listen, stops);
    modems.phones.listening(port);
    logger.info(`API listening on ${url} (UI at ${url}/ui/)`);
    return {
      url,
      simulated: simulatedModems.length > 0,
      username: auth.credentials.username,
      ...(auth.credentials.generatedPassword
        ? { generatedPassword: auth.credentials.generatedPassword }
        : {}),
    };
  };

  const gateway: Gateway = {
    events,
    simulatedModems,
    get sendingPaused() {
      return run?.sending.paused() ?? false;
    },
    start: async () => {
      try {
        return await start();
      } catch (error) {
        stopping = true;
        await stops.stopAll(logger);
        throw error;
      }
    },
    stop: () => {
      stopping = true;
      return stops.stopAll(logger);
    },
    setSendingPaused(value) {
      const saved = run ? run.sending.setPaused(value) : Promise.reject(notStarted());
      void saved.catch((error: unknown) =>
        logger.error('the pause of sending could not be saved', { error }),
      );
    },
    async windowSessionToken() {
      if (!run) throw notStarted();
      return run.onlyOwner() ? (await run.tokens.issueSession()).accessToken : undefined;
    },
    attention() {
      return run?.attention() ?? { webhookFailuresLastHour: 0, overdueReports: 0 };
    },
    recheckModems() {
      run?.pool.recheck();
    },
    healthReport() {
      return run ? run.health.report() : Promise.reject(notStarted());
    },
  };
  return gateway;
}
