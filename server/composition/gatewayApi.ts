import type { LoginChange } from '../auth/loginChange.js';
import type { ModemPool } from '../devices/modemPool.js';
import { type SerialAccess, serialModemSource } from '../devices/serialModemSource.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { FleetMode } from '../fleet/fleetMode.js';
import { FleetSecrets } from '../fleet/fleetSecrets.js';
import type { HttpExtension } from '../http/app.js';
import { registerBackupRoutes } from '../http/routes/backupRoutes.js';
import { registerGatewayRoutes } from '../http/routes/gatewayRoutes.js';
import { registerModemOperationsRoutes } from '../http/routes/modemOperationsRoutes.js';
import { type PlanRouteDependencies, registerPlanRoutes } from '../http/routes/planRoutes.js';
import { registerRoutingRoutes } from '../http/routes/routingRoutes.js';
import type { MessageService } from '../messages/messageService.js';
import type { ModemOperationsSettingsStore } from '../operations/modemOperationsSettings.js';
import { registerPhoneRoutes } from '../phone/phoneRoutes.js';
import { registerPhoneHookRoutes } from '../phone/phoneWebhooks.js';
import type { OperatorData } from '../routing/operatorData.js';
import type { RoutingBook } from '../routing/routingBook.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { SimulatedModem } from '../simulator/simulatedModem.js';
import { dailyStats } from '../stats/dailyStats.js';
import { checkNetworkTarget, hostOfUrl } from '../transport/networkTargets.js';
import { checkSerialPortPath } from '../transport/serialPortCheck.js';
import { isTcpAddress, parseTcpAddress } from '../transport/tcpAddress.js';
import type { WebhookDispatcher } from '../webhooks/webhookDispatcher.js';
import type { CompositionContext } from './context.js';
import type { GatewayDesk } from './desk.js';
import type { ComposedModemPool } from './modemPool.js';
import type { RunningModems } from './modems.js';
import type { ModemOperations } from './operations.js';

/**
 * The routes beyond the spec (/gateway/v1: status, modems, AT log, webhook deliveries,
 * pause; modem operations; backup; phones; the desk), registered on the API's builder so they
 * get the same validation, access control and OpenAPI entries.
 */
export function gatewayExtensions(
  { storage, clock, logger, settings }: CompositionContext,
  deps: {
    version: string;
    serial: SerialAccess;
    modemPool: ComposedModemPool;
    modems: RunningModems;
    simulatedModems: readonly SimulatedModem[];
    operations: ModemOperations;
    operationSettings: ModemOperationsSettingsStore;
    messages: MessageService;
    scheduler: Scheduler;
    dispatcher: WebhookDispatcher;
    fleet: FleetMode;
    desk: GatewayDesk;
    login: LoginChange;
    routing: { book: RoutingBook; operators: OperatorData };
    plans: PlanRouteDependencies;
    sending: { paused(): boolean; setPaused(paused: boolean): Promise<void> };
  },
): HttpExtension[] {
  const { serial, modems, operations } = deps;
  const pool: ModemPool = deps.modemPool.pool;
  const { hilinkAdapter } = modems;
  const fleetSecrets = new FleetSecrets(() => deps.fleet.status());
  /** A host a caller names for the gateway to connect to (`networkTargets.ts`). */
  const admitTarget = (host: string | undefined, field: string): Promise<void> =>
    host === undefined
      ? Promise.resolve()
      : checkNetworkTarget(host, field, {
          allowPrivate: settings.current().network.allow_private_targets === true,
        });
  return [
    (api) => deps.desk.replyDesk.registerRoutes(api),
    (api) =>
      registerGatewayRoutes(api, {
        devices: pool,
        status: ({ maySeeSecrets }) => ({
          version: deps.version,
          simulated: deps.simulatedModems.length > 0,
          ...(hilinkAdapter && !pool.list().some((device) => device.modem.port === hilinkAdapter.url)
            ? { hilinkAdapter: { interfaceName: hilinkAdapter.interfaceName, url: hilinkAdapter.url } }
            : {}),
          sendingPaused: deps.sending.paused(),
          scheduler: deps.scheduler.status(),
          webhooks: deps.dispatcher.status(),
          fleet: fleetSecrets.view(maySeeSecrets),
        }),
        revealCreatedFleetUser: () => fleetSecrets.revealCreatedUser(),
        dailyStats: (days) => dailyStats(storage.counts, clock.now(), days),
        serialPorts: async () => {
          const inUse = new Set(pool.list().map((device) => device.modem.port));
          return (await serial.listPorts()).map((port) => ({ ...port, inUse: inUse.has(port.path) }));
        },
        refusedPorts: () => pool.refusedPorts(),
        addHiLink: async (url) => {
          // The stick the gateway found on an adapter of this PC is the one private address
          // known to be a HiLink stick, and the status offers it: no setting needed for it.
          if (url.replace(/\/$/, '') !== hilinkAdapter?.url) await admitTarget(hostOfUrl(url), 'url');
          const member = await modems.addHiLink(url);
          const device = pool.get(member.deviceId);
          if (!device) throw new Error(`HiLink stick at ${url} did not register`);
          return device;
        },
        addSerialModem: async (path, baudRate) => {
          // A serial server's address names no file here, so the path rule (security review 7)
          // is for every other path; the schema has checked the address's form.
          if (isTcpAddress(path)) await admitTarget(parseTcpAddress(path)?.host, 'path');
          const driver = isTcpAddress(path)
            ? await modems.networkModems.add(path)
            : await checkSerialPortPath(path, { listPorts: serial.listPorts }).then(() =>
                pool.addModem(serialModemSource(serial, { path, baudRate })),
              );
          const device = pool.get(driver.deviceId);
          if (!device) throw new Error(`modem on ${path} did not register`);
          return device;
        },
        atLog: (deviceId, limit) => {
          const port = pool.get(deviceId)?.modem.port;
          return port === undefined ? undefined : deps.modemPool.atLog(port, limit);
        },
        deliveries: (query) => deps.dispatcher.list(query),
        sendTestEvent: (webhookId) => deps.dispatcher.sendTest(webhookId),
        resendDeliveries: (filter) => deps.dispatcher.resend(filter),
        setSendingPaused: (value) => deps.sending.setPaused(value),
        changeCredentials: (caller, change) => deps.login.change(caller, change),
        setSmsService: (deviceId, preference) => pool.setSmsService(deviceId, preference),
        renameDevice: (deviceId, name) => pool.rename(deviceId, name),
        simulateIncoming: (deviceId, message) => {
          const simulator = modems.simulators.byPort(pool.get(deviceId)?.modem.port ?? '');
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
        sessions: operations.ussdSessions,
        settings: deps.operationSettings,
        balance: operations.balanceWatch,
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
      registerRoutingRoutes(api, {
        ...deps.routing,
        online: () => new Set(pool.online().map((modem) => modem.deviceId)),
      }),
    (api) => registerPlanRoutes(api, deps.plans),
    (api) =>
      registerBackupRoutes(api, {
        backup: (path) => storage.backup(path),
        databaseBytes: () => storage.databaseBytes(),
        counts: () => ({ messages: storage.messages.count(), incoming: storage.inbox.count() }),
        now: () => clock.now(),
      }),
    (api) =>
      registerPhoneHookRoutes(api, {
        phones: () => modems.phones.phones,
        repository: storage.messages,
        logger,
        clock,
      }),
    (api) =>
      registerPhoneRoutes(api, {
        add: async (phone) => {
          if (phone.serial === undefined && phone.url !== undefined)
            await admitTarget(hostOfUrl(phone.url), 'url');
          const member = await modems.phones.add(phone);
          const device = pool.get(member.deviceId);
          if (!device) throw new Error(`phone at ${member.port} did not register`);
          return device;
        },
        usbPhones: () => modems.phones.usbPhones(),
        pacing: (deviceId) => modems.phones.phone(deviceId).pacing,
        setPacing: async (deviceId, pacing) => (await modems.phones.setPacing(deviceId, pacing)).pacing,
      }),
    (api) => deps.desk.desk.register(api, deps.messages),
  ];
}
