import type { GatewayOptions } from '../config/options.js';
import type { DeviceDirectory } from '../devices/pool/deviceDirectory.js';
import { FleetMode } from '../doors/fleet/fleetMode.js';
import type { FleetDeviceDocument } from '../doors/fleet/registration.js';
import { jobOfStoredReport, type StoredReport, type TrackedMessage } from '../doors/fleet/reportTracker.js';
import type { InboxReplay } from '../services/inbox/inboxReplay.js';
import type { MessageService } from '../services/messages/messageService.js';
import type { WebhookRegistry } from '../services/webhooks/webhookRegistry.js';
import type { CompositionContext } from './context.js';

/**
 * Fleet mode. Like the webhook dispatcher it listens before anything changes a message;
 * it connects (`fleet.start()`) once the scheduler runs. `--server-url`/`--server-token` are
 * written into the settings here, so the UI shows them.
 */
export async function composeFleet(
  context: CompositionContext,
  deps: {
    fleetServer: GatewayOptions['fleetServer'];
    /** Fetch interval while the server's events stream is down; default 15 s (tests shorten it). */
    pollIntervalMs: number | undefined;
    messages: MessageService;
    webhooks: WebhookRegistry;
    /** MessagesExportRequested replays the inbox as POST /inbox/export does. */
    inboxReplay: InboxReplay;
    devices: DeviceDirectory;
  },
): Promise<FleetMode> {
  const { storage, settings, outbox } = context;
  await outbox.adopt(storage.openCollection<StoredReport>('fleet-report-outbox'), jobOfStoredReport);
  const fleet = new FleetMode({
    settings,
    document: await storage.openDocument<FleetDeviceDocument>('fleet-device', {}),
    outbox,
    tracked: storage.openCollection<TrackedMessage>('fleet-messages'),
    events: context.events,
    messages: deps.messages,
    repository: storage.messages,
    webhooks: deps.webhooks,
    inbox: deps.inboxReplay,
    devices: deps.devices,
    clock: context.clock,
    logger: context.logger.child('fleet'),
    ...(deps.pollIntervalMs === undefined ? {} : { pollIntervalMs: deps.pollIntervalMs }),
  });
  context.stops.add(() => fleet.stop());
  if (deps.fleetServer) {
    await settings.patch({
      gateway: { cloud_url: deps.fleetServer.url, private_token: deps.fleetServer.token },
    });
  }
  return fleet;
}
