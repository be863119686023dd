import type { HttpServices } from './app.js';
import type { ApiBuilder } from './defineRoute.js';
import { registerAppRoutes } from './routes/appRoutes.js';
import { registerDeviceRoutes } from './routes/deviceRoutes.js';
import { registerEventStreamRoutes } from './routes/eventStreamRoutes.js';
import { registerHealthRoutes } from './routes/healthRoutes.js';
import { registerInboxRoutes } from './routes/inboxRoutes.js';
import { registerLogRoutes } from './routes/logRoutes.js';
import { registerMessageRoutes } from './routes/messageRoutes.js';
import { registerSettingsRoutes } from './routes/settingsRoutes.js';
import { registerSmppLoginRoutes } from './routes/smppLoginRoutes.js';
import { registerStaffRoutes } from './routes/staffRoutes.js';
import { registerTokenRoutes } from './routes/tokenRoutes.js';
import { registerUsageRoutes } from './routes/usageRoutes.js';
import { registerWebhookRoutes } from './routes/webhookRoutes.js';

/** Every API route module, registered on one builder, then the composition root's extensions. */
export function registerApiRoutes(api: ApiBuilder, services: HttpServices): void {
  registerMessageRoutes(api, { messages: services.messages });
  registerDeviceRoutes(api, { devices: services.devices, overdueReports: services.overdueReports });
  registerInboxRoutes(api, { inbox: services.inbox.reads, replay: services.inbox.replay });
  registerSettingsRoutes(api, { settings: services.settings });
  registerLogRoutes(api, { logs: services.logs });
  registerHealthRoutes(api, { health: services.health });
  registerTokenRoutes(api, { tokens: services.tokens });
  registerStaffRoutes(api, {
    staff: services.staff,
    smppLogins: services.smppLogins,
    login: services.login,
    tokens: services.tokens,
    audit: services.audit,
  });
  registerUsageRoutes(api, { usage: services.usage, clock: services.clock });
  registerAppRoutes(api, {
    apps: services.apps,
    quotas: services.quotas,
    smppLogins: services.smppLogins,
    tokens: services.tokens,
    webhooks: services.webhooks,
  });
  registerSmppLoginRoutes(api, {
    smppLogins: services.smppLogins,
    staff: services.staff,
    apps: services.apps,
  });
  registerWebhookRoutes(api, { webhooks: services.webhooks });
  registerEventStreamRoutes(api, {
    events: services.events,
    accessControl: services.accessControl,
    logger: services.logger.child('http'),
    messageView: (message) => services.messages.view(message),
  });
  for (const register of services.extensions ?? []) register(api);
}
