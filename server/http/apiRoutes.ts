import type { HealthService } from '../health/healthService.js';
import { InboxReplay } from '../inbox/inboxReplay.js';
import type { MessageService } from '../messages/messageService.js';
import { overdueReports } from '../messages/overdueReports.js';
import type { SettingsService } from '../settings/settingsService.js';
import type { HttpDependencies } from './app.js';
import type { ApiBuilder } from './defineRoute.js';
import { registerDeviceRoutes } from './routes/deviceRoutes.js';
import { registerEventStreamRoutes } from './routes/eventStreamRoutes.js';
import { registerHealthRoutes } from './routes/healthRoutes.js';
import { registerInboxRoutes } from './routes/inboxRoutes.js';
import { registerLogRoutes } from './routes/logRoutes.js';
import { registerMessageRoutes } from './routes/messageRoutes.js';
import { registerSettingsRoutes } from './routes/settingsRoutes.js';
import { registerTokenRoutes } from './routes/tokenRoutes.js';
import { registerWebhookRoutes } from './routes/webhookRoutes.js';

/** Every API route module, registered on one builder. */
export function registerApiRoutes(
  api: ApiBuilder,
  deps: HttpDependencies,
  services: { messages: MessageService; settings: SettingsService; health: HealthService },
): void {
  const logger = deps.logger.child('http');
  registerMessageRoutes(api, { messages: services.messages, gatewayDeviceId: deps.gatewayDeviceId });
  registerDeviceRoutes(api, {
    devices: deps.devices,
    overdueReports: () => overdueReports(deps.repositories.messages, deps.clock),
  });
  registerInboxRoutes(api, {
    inbox: deps.repositories.inbox,
    replay: new InboxReplay({
      inbox: deps.repositories.inbox,
      devices: deps.devices,
      events: deps.events,
      clock: deps.clock,
      logger: logger.child('inbox'),
    }),
  });
  registerSettingsRoutes(api, { settings: services.settings });
  registerLogRoutes(api, { logs: deps.repositories.logs });
  registerHealthRoutes(api, { health: services.health });
  registerTokenRoutes(api, { tokens: deps.tokens });
  registerWebhookRoutes(api, { webhooks: deps.webhooks });
  registerEventStreamRoutes(api, {
    events: deps.events,
    accessControl: deps.accessControl,
    logger,
    gatewayDeviceId: deps.gatewayDeviceId,
  });
  for (const register of deps.extensions ?? []) register(api, { messages: services.messages });
}
