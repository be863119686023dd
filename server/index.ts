import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AtSession } from './at/atSession.js';
import { createAccessControl } from './auth/accessControl.js';
import { type CredentialsDocumentData, openBasicCredentials } from './auth/credentials.js';
import { createLoginThrottle, type LoginThrottleOptions } from './auth/loginThrottle.js';
import { openTokenService, type TokenDocumentData, type TokenService } from './auth/tokenService.js';
import { type Clock, systemClock } from './clock/clock.js';
import { openGatewayDeviceId } from './composition/gatewayIdentity.js';
import { readPackageVersion, releaseIdOf } from './composition/packageVersion.js';
import { type PhoneTiming, startPhones } from './composition/phones.js';
import { sendingPolicyFrom, webhookPolicyFrom } from './composition/policies.js';
import { startPortProbing } from './composition/portProbing.js';
import { startRetention } from './composition/retention.js';
import { realSerialAccess } from './composition/serialAccess.js';
import { startSimulatedModem } from './composition/simulatedModems.js';
import { type GatewayOptions, localUrlOf } from './config/options.js';
import { openDesk } from './desk/desk.js';
import { OptOutList } from './desk/optOut/optOutList.js';
import { e164PeerKey } from './desk/peerKey.js';
import { openReplyDesk } from './desk/replyDesk.js';
import { seedDefaultCountry, systemRegion } from './desk/systemRegion.js';
import { ErrorCode, GatewayError } from './errors/gatewayError.js';
import { EventBus } from './events/eventBus.js';
import { FleetMode } from './fleet/fleetMode.js';
import type { FleetDeviceDocument } from './fleet/registration.js';
import type { QueuedReport, TrackedMessage } from './fleet/reportOutbox.js';
import { HealthService } from './health/healthService.js';
import { detectHiLinkAdapter, type HiLinkAdapter } from './hilink/hilinkDetection.js';
import { HiLinkModem } from './hilink/hilinkModem.js';
import { HiLinkSession } from './hilink/hilinkSession.js';
import { createHttpApp } from './http/app.js';
import { defaultAllowedHosts } from './http/hostCheck.js';
import { registerBackupRoutes } from './http/routes/backupRoutes.js';
import { registerGatewayRoutes } from './http/routes/gatewayRoutes.js';
import { registerModemOperationsRoutes } from './http/routes/modemOperationsRoutes.js';
import { InboxService } from './inbox/inboxService.js';
import { consoleSink, createLogger, type Logger, type LogSink } from './logging/logger.js';
import { limitRepeats } from './logging/repeatLimiter.js';
import { createMessageDecryptor } from './messages/e2eEncryption.js';
import { MessageLifecycle } from './messages/messageLifecycle.js';
import { MessageService } from './messages/messageService.js';
import { type KnownDevice, ModemPool } from './modem/modemPool.js';
import type { ModemTimingOptions } from './modem/modemTiming.js';
import type { SerialAccess } from './modem/serialModemSource.js';
import { serialModemSource } from './modem/serialModemSource.js';
import { BalanceWatch } from './operations/balanceWatch.js';
import { createCallRecorder } from './operations/callRecorder.js';
import {
  type ModemOperationsDocument,
  ModemOperationsSettingsStore,
} from './operations/modemOperationsSettings.js';
import { recordSignalHistory } from './operations/signalRecorder.js';
import { UssdSessions } from './operations/ussdSessions.js';
import { registerPhoneRoutes } from './phone/phoneRoutes.js';
import { registerPhoneHookRoutes } from './phone/phoneWebhooks.js';
import { Scheduler } from './scheduler/scheduler.js';
import { emptyStoredSettings, SettingsService, type StoredSettings } from './settings/settingsService.js';
import type { SimulatedModem } from './simulator/simulatedModem.js';
import { dailyStats } from './stats/dailyStats.js';
import { openStorage, type Storage } from './store/storage.js';
import { checkSerialPortPath } from './transport/serialPortCheck.js';
import { TrafficRecorder } from './transport/trafficRecorder.js';
import type { WebhookDelivery } from './webhooks/webhookDelivery.js';
import { WebhookDispatcher } from './webhooks/webhookDispatcher.js';
import { createNodePoster, type WebhookPoster } from './webhooks/webhookPoster.js';
import { createWebhookRegistry, type WebhookDocumentData } from './webhooks/webhookRegistry.js';

/** What a host (CLI, Electron core process, tests, benchmarks) may inject. */
export interface GatewayDependencies {
  clock?: Clock;
  /** Where log records go besides the store and the live stream. Default: the console. */
  logSinks?: LogSink[];
  /** Serial ports; tests and benchmarks inject ptys. Default: node-serialport. */
  serial?: SerialAccess;
  webhookPoster?: WebhookPoster;
  /** Modem driver timeouts and back-off; tests shorten them to watch recovery quickly. */
  modemTiming?: Partial<ModemTimingOptions>;
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
  /** A short-lived all-scopes token for the desktop window. */
  issueSessionToken(): Promise<string>;
}

/**
 * The one composition root: builds every part from the options and injected dependencies,
 * starts them bottom-up (store → modems → scheduler → webhooks → HTTP) and stops them top-down.
 */
export function createGateway(options: GatewayOptions, deps: GatewayDependencies = {}): Gateway {
  const clock = deps.clock ?? systemClock;
  const events = new EventBus();
  let storedLogs: Storage['logs'] | undefined;
  const logger = createLogger({
    level: options.logLevel,
    now: () => clock.now(),
    sinks: [
      limitRepeats([
        ...(deps.logSinks ?? [consoleSink()]),
        (record) => storedLogs?.append(record),
        (record) => events.emit('log', record),
      ]),
    ],
  });
  const simulatedModems: SimulatedModem[] = [];
  /** The built-in simulators by their port name ("simulated:1"), for simulated incoming SMS. */
  const simulatorsByPort = new Map<string, SimulatedModem>();
  const stops: (() => Promise<void> | void)[] = [];
  /** Set once stopping began: background work (probing, the simulator fallback) starts nothing new. */
  let stopping = false;
  let paused = false;
  let tokens: TokenService | undefined;
  let scheduler: Scheduler | undefined;

  const start = async (): Promise<GatewayStarted> => {
    const version = readPackageVersion();
    const storage = await openStorage({ dataDir: options.dataDir, clock, logger });
    stops.push(() => storage.close());
    storedLogs = storage.logs;
    logger.info(`Desktop SMS Gateway ${version} starting`, { dataDir: options.dataDir });

    const settings = new SettingsService(
      await storage.openDocument<StoredSettings>('settings', structuredClone(emptyStoredSettings)),
      logger.child('settings'),
    );
    await seedDefaultCountry(settings, systemRegion(), logger.child('settings'));
    const credentials = await openBasicCredentials({
      document: await storage.openDocument<CredentialsDocumentData>('credentials', {}),
      username: options.username,
      password: options.password,
    });
    tokens = await openTokenService({
      document: await storage.openDocument<TokenDocumentData>('tokens', { revoked: {} }),
      clock,
      logger,
    });
    const accessControl = createAccessControl({
      credentials,
      tokens,
      throttle: createLoginThrottle({ ...deps.loginThrottle, clock }),
      clock,
      logger,
    });
    const webhooks = createWebhookRegistry({
      document: await storage.openDocument<WebhookDocumentData>('webhooks', { webhooks: [] }),
      logger,
      allowLanHttp: () => settings.current().webhooks.allow_lan_http === true,
    });

    const lifecycle = new MessageLifecycle(storage.messages, events, clock, logger.child('messages'));
    const inbox = new InboxService({
      repository: storage.inbox,
      events,
      pendingParts: storage.pendingParts,
      clock,
      logger,
    });

    // The last AT lines of each port, for the UI's modem page (whatever the log level).
    const traffic = new Map<string, TrafficRecorder>();
    const recorderFor = (port: string) => {
      let recorder = traffic.get(port);
      if (!recorder) {
        recorder = new TrafficRecorder(() => clock.now());
        traffic.set(port, recorder);
      }
      return recorder;
    };
    // Modem operations (README "Modem operations"): USSD, balance checks, calls, signal history.
    const operationsSettings = new ModemOperationsSettingsStore(
      await storage.openDocument<ModemOperationsDocument>('modem-operations', { devices: {} }),
    );
    /** Set once the queue service exists (it needs the pool): a missed call's SMS answer is queued like any message. */
    let messageService: MessageService | undefined;
    const recordCall = createCallRecorder({
      addCall: (call) => storage.modemRecords.addCall(call),
      settings: (deviceId) => operationsSettings.settings(deviceId),
      enqueue: (request) =>
        messageService
          ? messageService.enqueue(request)
          : Promise.reject(new GatewayError(ErrorCode.InvalidState, 'the gateway is still starting')),
      events,
      logger: logger.child('calls'),
    });
    const serial = deps.serial ?? realSerialAccess(clock, logger);
    const devicesDocument = await storage.openDocument<{ devices: KnownDevice[] }>('devices', {
      devices: [],
    });
    const pool = new ModemPool({
      clock,
      logger,
      knownDevices: {
        load: () => devicesDocument.data.devices,
        save: (devices) =>
          devicesDocument.update((data) => {
            data.devices = devices;
          }),
      },
      createSession: (transport) =>
        new AtSession(recorderFor(transport.description).record(transport), {
          clock,
          logger: logger.child('at'),
        }),
      receive: (deviceId, simNumber, sms) => inbox.receive(deviceId, simNumber, sms),
      onDeliveryReport: (report) => lifecycle.applyDeliveryReport(report),
      pin: options.simPin,
      onCall: recordCall,
      rejectCalls: (deviceId) => operationsSettings.settings(deviceId).rejectCalls,
      balanceOf: (deviceId) => operationsSettings.lastBalance(deviceId),
      ...(deps.modemTiming ? { timing: deps.modemTiming } : {}),
      serial: { ...serial, configured: options.modems },
    });
    const health = new HealthService({
      devices: pool,
      messages: storage.messages,
      clock,
      storageWritable: () => storage.checkWritable(),
      version,
      releaseId: releaseIdOf(version),
      thresholds: {
        weakSignalDbm: -105,
        failedWarn: 1,
        failedFail: 50,
        queueWarn: 1_000,
        queueFail: options.maxPendingMessages,
      },
    });

    // The dispatcher subscribes before anything can raise an event: modems deliver SMS and
    // reports as soon as they start, the inbox restores partial messages, and crash recovery changes messages as the scheduler starts.
    // Its stop is pushed first so it runs last, after everything that raises events.
    const dispatcher = new WebhookDispatcher({
      outbox: storage.openCollection<WebhookDelivery>('webhook-outbox'),
      targets: () => webhooks.list(),
      policy: () => webhookPolicyFrom(settings.current()),
      events,
      post: deps.webhookPoster ?? createNodePoster(),
      clock,
      logger: logger.child('webhooks'),
      health: async () => health.report(),
    });
    await dispatcher.start();
    stops.push(() => dispatcher.stop());
    // One queue service for the API and the desk's replies. The desk follows incoming SMS from
    // before the modems start, and its opt-out list is there before the scheduler sends.
    const gatewayDeviceId = await openGatewayDeviceId(storage);
    const messages = new MessageService(
      {
        repository: storage.messages,
        lifecycle,
        devices: pool,
        events,
        clock,
        logger: logger.child('messages'),
        onEnqueued: (message) => scheduler?.enqueued(message),
      },
      { maxPendingMessages: options.maxPendingMessages },
    );
    messageService = messages;
    // The address book and bulk sends, and the side that talks back; both heed one opt-out list.
    const key = e164PeerKey(() => settings.current().desk.default_country);
    const optOuts = new OptOutList(storage.sqlite.db, storage.sqlite.commits, { key, clock, events });
    const desk = openDesk({ storage, settings, lifecycle, clock, logger, recipientFilters: [optOuts] });
    const replyDesk = openReplyDesk({
      storage,
      messages,
      events,
      settings: () => settings.current(),
      key,
      optOuts,
      book: desk,
      gatewayDeviceId,
      clock,
      logger,
    });
    await replyDesk.start();
    stops.push(() => replyDesk.stop());
    // Like the dispatcher, fleet mode listens before anything changes a message; it connects
    // once the scheduler runs.
    const fleet = new FleetMode({
      settings,
      document: await storage.openDocument<FleetDeviceDocument>('fleet-device', {}),
      reports: storage.openCollection<QueuedReport>('fleet-report-outbox'),
      tracked: storage.openCollection<TrackedMessage>('fleet-messages'),
      events,
      messages,
      repository: storage.messages,
      webhooks,
      clock,
      logger: logger.child('fleet'),
      ...(deps.fleetPollIntervalMs === undefined ? {} : { pollIntervalMs: deps.fleetPollIntervalMs }),
    });
    stops.push(() => fleet.stop());
    if (options.fleetServer) {
      await settings.patch({
        gateway: { cloud_url: options.fleetServer.url, private_token: options.fleetServer.token },
      });
    }
    // Restored multipart parts may complete or time out at once: after the dispatcher listens.
    await inbox.start();
    stops.push(() => inbox.stop());
    pool.onChange((deviceId) => events.emit('device:updated', { deviceId }));
    stops.push(
      recordSignalHistory({
        devices: pool,
        clock,
        addSample: (deviceId, sample, keepFrom) =>
          storage.modemRecords.addSignalSample(deviceId, sample, keepFrom),
      }),
    );
    const ussdSessions = new UssdSessions(pool, clock);
    const balanceWatch = new BalanceWatch({
      settings: operationsSettings,
      sessions: ussdSessions,
      events,
      clock,
      logger: logger.child('balance'),
      onReading: (deviceId) => events.emit('device:updated', { deviceId }),
    });
    stops.push(() => pool.stop());
    await pool.start();
    const addHiLink = (url: string) =>
      pool.addMember(
        new HiLinkModem({
          session: new HiLinkSession({ baseUrl: url, clock, timeoutMs: 5_000 }),
          receive: (deviceId, simNumber, sms) => inbox.receive(deviceId, simNumber, sms),
          clock,
          logger,
        }),
      );
    for (const url of options.hilinks) {
      void addHiLink(url).catch((error: unknown) =>
        logger.error('could not add the HiLink stick', { url, error }),
      );
    }
    // A HiLink stick is a network adapter, invisible to serial probing: say so rather than
    // fall back to the simulator in silence.
    const hilinkAdapter =
      options.hilinks.length === 0 ? (deps.detectHiLink ?? detectHiLinkAdapter)() : undefined;
    const hilinkAdvice = hilinkAdapter
      ? `A Huawei HiLink stick seems connected (this PC has ${hilinkAdapter.address} on "${hilinkAdapter.interfaceName}"), ` +
        `but it has no AT port and is not in use: start with --hilink ${hilinkAdapter.url} or add it on the Modems screen`
      : undefined;
    if (hilinkAdvice) logger.warn(hilinkAdvice);
    const addSimulatedModem = async () => {
      const simulated = await startSimulatedModem(simulatedModems.length + 1, { clock, logger });
      simulatedModems.push(simulated.modem);
      simulatorsByPort.set(simulated.source.port, simulated.modem);
      stops.push(() => simulated.modem.stop());
      const member = await pool.addModem(simulated.source);
      return { modem: simulated.modem, deviceId: member.deviceId };
    };
    /** The simulator started only because no modem was found (not one asked for with --simulate). */
    let fallbackSimulator: { modem: SimulatedModem; deviceId: string } | undefined;
    // DESIGN §3: the simulator never takes a message meant for the real world once a real modem
    // is there, and with background probing a slow modem may well turn up after it started.
    pool.onChange(() => {
      const retired = fallbackSimulator;
      if (
        !retired ||
        !pool.list().some((device) => !device.modem.simulated && device.modem.status === 'ready')
      ) {
        return;
      }
      fallbackSimulator = undefined;
      logger.info('A real modem is ready: the simulated modem started in its place is stopped.');
      void pool
        .forget(retired.deviceId)
        .then(() => retired.modem.stop())
        .then(() => {
          simulatedModems.splice(simulatedModems.indexOf(retired.modem), 1);
          for (const [port, modem] of simulatorsByPort) {
            if (modem === retired.modem) simulatorsByPort.delete(port);
          }
        })
        .catch((error: unknown) => logger.warn('could not stop the simulated modem', { error }));
    });
    // The demo fallback: no modem configured, none found, none asked to be simulated.
    const fallBackToSimulator = async (why: string) => {
      if (stopping || pool.online().length > 0) return;
      if (!options.simulatorFallback) {
        // The desktop app: the simulator is the user's choice, never a silent stand-in.
        logger.warn(
          `${why}. Messages wait in the queue until a modem or phone is plugged in (it is found by itself), ` +
            'or until you choose the simulated modem.',
        );
        return;
      }
      logger.warn(
        `${why}: starting a SIMULATED modem. Messages will not reach real phones. ` +
          (hilinkAdvice
            ? `${hilinkAdvice}.`
            : 'Plug in a modem (it is found by itself), or start with --modem <port>.'),
      );
      fallbackSimulator = await addSimulatedModem();
    };
    let listeningPort: number | undefined;
    const phoneRegistry = await startPhones({
      urls: options.phones,
      adbPath: options.adbPath,
      gatewayPort: () => listeningPort,
      pool,
      storage,
      lifecycle,
      receive: (deviceId, simNumber, sms) => inbox.receive(deviceId, simNumber, sms),
      clock,
      logger,
      events,
      ...(deps.phoneTiming ? { timing: deps.phoneTiming } : {}),
    });
    for (let index = 1; index <= options.simulatedModems; index++) await addSimulatedModem();
    const noModemNamed =
      options.simulatedModems === 0 &&
      options.modems.length === 0 &&
      options.hilinks.length === 0 &&
      phoneRegistry.phones.length === 0;
    if (options.probeSerialPorts && options.modems.length === 0) {
      // Probing runs in the background: a port that never opens or a modem still booting must
      // not keep the API from listening.
      const probing = startPortProbing({
        listPorts: serial.listPorts,
        probe: (ports) => pool.discover(ports),
        clock,
        logger,
      });
      stops.push(() => probing.stop());
      if (noModemNamed) {
        void probing.firstRound
          .then(() => fallBackToSimulator('No modem answered on any serial port'))
          .catch((error: unknown) => logger.error('could not start the simulated modem', { error }));
      }
    } else if (noModemNamed) {
      await fallBackToSimulator('No modem configured and serial probing is off');
    }

    scheduler = new Scheduler({
      repository: storage.messages,
      lifecycle,
      devices: pool,
      policy: () =>
        sendingPolicyFrom(settings.current(), {
          resendInterrupted: options.resendInterrupted,
          paused,
          timeZone: options.timeZone,
        }),
      decrypt: createMessageDecryptor(() => settings.current().encryption.passphrase ?? undefined),
      isOptedOut: (phoneNumber) => optOuts.isOptedOut(phoneNumber),
      clock,
      logger,
    });
    const activeScheduler = scheduler;
    settings.onChange(() => activeScheduler.wake());
    await scheduler.start();
    stops.push(() => activeScheduler.stop());

    stops.push(startRetention({ storage, settings, clock, logger }));
    balanceWatch.start();
    stops.push(() => balanceWatch.stop());
    await fleet.start();

    const app = createHttpApp(
      {
        repositories: { messages: storage.messages, inbox: storage.inbox, logs: storage.logs },
        devices: pool,
        lifecycle,
        events,
        accessControl,
        settings,
        health,
        tokens,
        webhooks,
        gatewayDeviceId,
        clock,
        logger,
        onEnqueued: (message) => activeScheduler.enqueued(message),
        messages,
        extensions: [
          (api) => replyDesk.registerRoutes(api),
          (api) =>
            registerGatewayRoutes(api, {
              devices: pool,
              status: () => ({
                version,
                simulated: simulatedModems.length > 0,
                ...(hilinkAdapter && !pool.list().some((device) => device.modem.port === hilinkAdapter.url)
                  ? { hilinkAdapter: { interfaceName: hilinkAdapter.interfaceName, url: hilinkAdapter.url } }
                  : {}),
                sendingPaused: paused,
                scheduler: activeScheduler.status(),
                webhooks: dispatcher.status(),
                fleet: fleet.status(),
              }),
              dailyStats: (days) => dailyStats(storage.counts, clock.now(), days),
              serialPorts: async () => {
                const inUse = new Set(pool.list().map((device) => device.modem.port));
                return (await serial.listPorts()).map((port) => ({ ...port, inUse: inUse.has(port.path) }));
              },
              addHiLink: async (url) => {
                const member = await addHiLink(url);
                const device = pool.get(member.deviceId);
                if (!device) throw new Error(`HiLink stick at ${url} did not register`);
                return device;
              },
              addSerialModem: async (path, baudRate) => {
                await checkSerialPortPath(path, { listPorts: serial.listPorts });
                const driver = await pool.addModem(serialModemSource(serial, { path, baudRate }));
                const device = pool.get(driver.deviceId);
                if (!device) throw new Error(`modem on ${path} did not register`);
                return device;
              },
              atLog: (deviceId, limit) => {
                const port = pool.get(deviceId)?.modem.port;
                return port === undefined ? undefined : traffic.get(port)?.recent(limit);
              },
              deliveries: (query) => dispatcher.list(query),
              sendTestEvent: (webhookId) => dispatcher.sendTest(webhookId),
              setSendingPaused: (value) => gateway.setSendingPaused(value),
              changeCredentials: (username, password) => credentials.change(username, password),
              setSmsService: (deviceId, preference) => pool.setSmsService(deviceId, preference),
              renameDevice: (deviceId, name) => pool.rename(deviceId, name),
              simulateIncoming: (deviceId, message) => {
                const port = pool.get(deviceId)?.modem.port ?? '';
                const simulator = simulatorsByPort.get(port);
                if (!simulator) {
                  throw new GatewayError(
                    ErrorCode.Conflict,
                    `device ${deviceId} is a real modem: only a simulated modem can receive a simulated SMS`,
                    { field: 'id' },
                  );
                }
                simulator.injectIncoming(message);
              },
            }),
          (api) =>
            registerModemOperationsRoutes(api, {
              devices: pool,
              sessions: ussdSessions,
              settings: operationsSettings,
              balance: balanceWatch,
              listCalls: (query) => storage.modemRecords.listCalls(query),
              dailyStats: (deviceId, days) =>
                dailyStats(
                  { since: (from) => storage.modemRecords.countsSince(deviceId, from) },
                  clock.now(),
                  days,
                ),
              signalSince: (deviceId, from) => storage.modemRecords.signalSince(deviceId, from),
              now: () => clock.now(),
            }),
          (api) =>
            registerBackupRoutes(api, { backup: (path) => storage.backup(path), now: () => clock.now() }),
          (api) =>
            registerPhoneHookRoutes(api, {
              phones: () => phoneRegistry.phones,
              repository: storage.messages,
              logger,
              clock,
            }),
          (api) =>
            registerPhoneRoutes(api, {
              add: async (phone) => {
                const member = await phoneRegistry.add(phone);
                const device = pool.get(member.deviceId);
                if (!device) throw new Error(`phone at ${member.port} did not register`);
                return device;
              },
              usbPhones: () => phoneRegistry.usbPhones(),
              pacing: (deviceId) => phoneRegistry.phone(deviceId).pacing,
              setPacing: async (deviceId, pacing) => (await phoneRegistry.setPacing(deviceId, pacing)).pacing,
            }),
          (api, services) => desk.register(api, services.messages),
        ],
      },
      {
        allowedHosts: allowedHostsFor(options),
        corsOrigins: options.corsOrigins,
        uiDirectory: options.uiDirectory,
        maxPendingMessages: options.maxPendingMessages,
        version,
      },
    );
    const server = await listen(createServer(app.callback()), options.listen);
    stops.push(() => closeServer(server));
    const { port } = server.address() as AddressInfo;
    listeningPort = port;
    // A USB phone's webhooks need the port: registered now rather than at its next round.
    for (const phone of phoneRegistry.phones) void phone.pollNow();
    const url = localUrlOf({ host: options.listen.host, port });
    logger.info(`API listening on ${url} (UI at ${url}/ui/)`);
    return {
      url,
      simulated: simulatedModems.length > 0,
      username: credentials.username,
      ...(credentials.generatedPassword ? { generatedPassword: credentials.generatedPassword } : {}),
    };
  };

  const gateway: Gateway = {
    events,
    simulatedModems,
    get sendingPaused() {
      return paused;
    },
    start: async () => {
      try {
        return await start();
      } catch (error) {
        stopping = true;
        await stopAll(stops, logger);
        throw error;
      }
    },
    stop: () => {
      stopping = true;
      return stopAll(stops, logger);
    },
    setSendingPaused(value) {
      paused = value;
      events.emit('sending:paused', { paused: value });
      logger.info(value ? 'sending paused by the user' : 'sending resumed');
      scheduler?.wake();
    },
    async issueSessionToken() {
      if (!tokens) throw new Error('the gateway is not started');
      return (await tokens.issueSession()).accessToken;
    },
  };
  return gateway;
}

/** The intended defaults (on 0.0.0.0 or ::, the machine's names and addresses) plus the user's. */
function allowedHostsFor(options: GatewayOptions): string[] {
  return [...new Set([...defaultAllowedHosts(options.listen.host), ...options.allowedHosts])];
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
function listenError(error: NodeJS.ErrnoException, { host, port }: GatewayOptions['listen']): Error {
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

/** Stops in reverse order of start; one failing stop never keeps the others from running. */
async function stopAll(stops: (() => Promise<void> | void)[], logger: Logger): Promise<void> {
  for (const stop of stops.splice(0).reverse()) {
    try {
      await stop();
    } catch (error) {
      logger.error('error while stopping', { error: error instanceof Error ? error.message : String(error) });
    }
  }
}
