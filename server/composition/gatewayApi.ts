import { createPhoneHookReceiver } from '../devices/phone/phoneWebhooks.js';
import type { ModemPool } from '../devices/pool/modemPool.js';
import type { SerialAccess } from '../devices/pool/serialModemSource.js';
import type { SimulatedModem } from '../devices/simulator/simulatedModem.js';
import type { FleetMode } from '../doors/fleet/fleetMode.js';
import { FleetSecrets } from '../doors/fleet/fleetSecrets.js';
import type { HttpExtension } from '../doors/http/app.js';
import { registerBackupRoutes } from '../doors/http/routes/backupRoutes.js';
import { registerDeskRoutes } from '../doors/http/routes/desk/deskRoutes.js';
import { registerDeviceAdminRoutes } from '../doors/http/routes/deviceRoutes.js';
import { registerGatewayRoutes } from '../doors/http/routes/gatewayRoutes.js';
import { registerModemOperationsRoutes } from '../doors/http/routes/modemOperationsRoutes.js';
import { registerPhoneHookRoute, registerPhoneRoutes } from '../doors/http/routes/phoneRoutes.js';
import { type PlanRouteDependencies, registerPlanRoutes } from '../doors/http/routes/planRoutes.js';
import { registerQueuedMessageRoutes } from '../doors/http/routes/queuedMessageRoutes.js';
import { registerRoutingRoutes } from '../doors/http/routes/routingRoutes.js';
import { registerWebhookDeliveryRoutes } from '../doors/http/routes/webhookRoutes.js';
import type { LoginChange } from '../services/auth/loginChange.js';
import type { MessageService } from '../services/messages/messageService.js';
import { createDeviceAdministration } from '../services/operations/deviceAdministration.js';
import type { ModemOperationsSettingsStore } from '../services/operations/modemOperationsSettings.js';
import type { OperatorData } from '../services/routing/operatorData.js';
import type { RoutingBook } from '../services/routing/routingBook.js';
import type { Scheduler } from '../services/scheduler/scheduler.js';
import { dailyStats } from '../services/stats/dailyStats.js';
import type { WebhookDispatcher } from '../services/webhooks/webhookDispatcher.js';
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
  { storage, clock, logger, settings, outbox }: CompositionContext,
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
  const fleetSecrets = new FleetSecrets(() => deps.fleet.status());
  const admin = createDeviceAdministration({
    pool,
    serial,
    networkModems: modems.networkModems,
    addHiLinkMember: (url) => modems.addHiLink(url),
    hilinkAdapter: modems.hilinkAdapter,
    phones: modems.phones,
    simulators: modems.simulators,
    atLogOfPort: (port, limit) => deps.modemPool.atLog(port, limit),
    allowPrivateTargets: () => settings.current().network.allow_private_targets === true,
  });
  return [
    (api) => registerDeskRoutes(api, { ...deps.desk, messages: deps.messages, now: () => clock.now() }),
    (api) => registerQueuedMessageRoutes(api, { messages: deps.messages }),
    (api) =>
      registerGatewayRoutes(api, {
        status: ({ maySeeSecrets }) => {
          const hilinkAdapter = admin.unaddedHiLinkAdapter();
          return {
            version: deps.version,
            simulated: deps.simulatedModems.length > 0,
            ...(hilinkAdapter
              ? { hilinkAdapter: { interfaceName: hilinkAdapter.interfaceName, url: hilinkAdapter.url } }
              : {}),
            sendingPaused: deps.sending.paused(),
            scheduler: deps.scheduler.status(),
            webhooks: deps.dispatcher.status(),
            outbox: outbox.status(),
            fleet: fleetSecrets.view(maySeeSecrets),
          };
        },
        revealCreatedFleetUser: () => fleetSecrets.revealCreatedUser(),
        dailyStats: (days) => dailyStats(storage.counts, clock.now(), days),
        setSendingPaused: (value) => deps.sending.setPaused(value),
        changeCredentials: (caller, change) => deps.login.change(caller, change),
      }),
    (api) =>
      registerDeviceAdminRoutes(api, { devices: pool, admin, refusedPorts: () => pool.refusedPorts() }),
    (api) => registerWebhookDeliveryRoutes(api, { deliveries: deps.dispatcher }),
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
      registerPhoneHookRoute(api, {
        hooks: createPhoneHookReceiver({
          phones: () => modems.phones.phones,
          repository: storage.messages,
          logger,
          clock,
        }),
      }),
    (api) =>
      registerPhoneRoutes(api, {
        add: (phone) => admin.addPhone(phone),
        usbPhones: () => modems.phones.usbPhones(),
        pacing: (deviceId) => modems.phones.phone(deviceId).pacing,
        setPacing: async (deviceId, pacing) => (await modems.phones.setPacing(deviceId, pacing)).pacing,
      }),
  ];
}
