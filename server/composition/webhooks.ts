import type { DeviceDirectory } from '../devices/pool/deviceDirectory.js';
import type { HealthService } from '../services/health/healthService.js';
import type { IncomingRule } from '../services/webhooks/webhookAudience.js';
import { jobOfStoredDelivery, type WebhookDelivery } from '../services/webhooks/webhookDelivery.js';
import { WebhookDispatcher } from '../services/webhooks/webhookDispatcher.js';
import type { WebhookPoster } from '../services/webhooks/webhookPoster.js';
import {
  createWebhookRegistry,
  type WebhookDocumentData,
  type WebhookRegistry,
} from '../services/webhooks/webhookRegistry.js';
import type { CompositionContext } from './context.js';
import { webhookPolicyFrom } from './policies.js';

/** The registered webhooks (the API's and the private server's), kept in the `webhooks` document. */
export async function openWebhookRegistry({
  storage,
  settings,
  logger,
}: CompositionContext): Promise<WebhookRegistry> {
  return createWebhookRegistry({
    document: await storage.openDocument<WebhookDocumentData>('webhooks', { webhooks: [] }),
    logger,
    allowLanHttp: () => settings.current().webhooks.allow_lan_http === true,
  });
}

/**
 * The dispatcher, started before anything can raise an event: modems deliver SMS and reports as
 * soon as they start, the inbox restores partial messages, and crash recovery changes messages as
 * the scheduler starts. Its stop is added before theirs so it runs after them.
 */
export async function startWebhookDispatcher(
  context: CompositionContext,
  deps: {
    registry: WebhookRegistry;
    health: HealthService;
    post: WebhookPoster;
    devices: Pick<DeviceDirectory, 'get'>;
    /** Whether an app's webhooks hear an incoming message on a device (auth/appDirectory.ts). */
    incomingFor: IncomingRule;
  },
): Promise<WebhookDispatcher> {
  const { storage, settings, outbox } = context;
  await outbox.adopt(storage.openCollection<WebhookDelivery>('webhook-outbox'), jobOfStoredDelivery);
  const dispatcher = new WebhookDispatcher({
    outbox,
    targets: () => deps.registry.list(),
    policy: () => webhookPolicyFrom(settings.current()),
    events: context.events,
    post: deps.post,
    clock: context.clock,
    logger: context.logger.child('webhooks'),
    health: async () => deps.health.report(),
    incomingFor: deps.incomingFor,
    // Read when the event is raised, as the app reads its SIM's number then (EventsReceiver.kt).
    ownNumber: (deviceId, simNumber) =>
      deps.devices.get(deviceId)?.simCards.find((card) => card.simNumber === simNumber)?.phoneNumber,
  });
  await dispatcher.start();
  context.stops.add(() => dispatcher.stop());
  return dispatcher;
}
