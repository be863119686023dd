import type { DeviceDirectory } from '../devices/pool/deviceDirectory.js';
import type { HttpExtension } from '../doors/http/app.js';
import { conversationView, threadMessageView } from '../doors/http/routes/desk/conversationRoutes.js';
import { toDeviceView } from '../doors/http/routes/deviceRoutes.js';
import { toIncomingView } from '../doors/http/routes/inboxRoutes.js';
import { registerMcpRoutes } from '../doors/http/routes/mcpRoutes.js';
import { createMcpEndpoint } from '../doors/mcp/mcpEndpoint.js';
import { mcpTools } from '../doors/mcp/mcpTools.js';
import { createSendDrafts } from '../doors/mcp/sendDrafts.js';
import { createInboxReads } from '../services/inbox/inboxReads.js';
import type { VerificationService } from '../services/verify/verificationService.js';
import type { GatewayAuth } from './auth.js';
import type { CompositionContext } from './context.js';
import type { GatewayDesk } from './desk.js';
import type { Messaging } from './messaging.js';

/**
 * The MCP endpoint for AI agents (docs/mcp.md): its tools read and act through the same services
 * as the HTTP routes, for the caller its token belongs to, and shows them as the API does.
 */
export function mcpExtension(
  context: CompositionContext,
  parts: {
    version: string;
    auth: Pick<GatewayAuth, 'accessControl' | 'apps' | 'recordChange'>;
    messaging: Pick<Messaging, 'messages' | 'overdueReports'>;
    devices: Pick<DeviceDirectory, 'list'>;
    verifications: VerificationService;
    desk: GatewayDesk;
  },
): HttpExtension {
  const { storage, settings, clock, logger } = context;
  const { conversations } = parts.desk.replyDesk;
  const namesOf = (numbers: readonly string[]) => parts.desk.desk.contacts.namesOf(numbers);
  const tools = mcpTools({
    messages: parts.messaging.messages,
    inbox: createInboxReads({ records: storage.inbox, apps: parts.auth.apps }),
    devices: () => {
      const overdue = parts.messaging.overdueReports();
      return parts.devices.list().map((device) => toDeviceView(device, overdue.get(device.id)));
    },
    verifications: parts.verifications,
    conversations: {
      list: (query) => {
        const page = conversations.list(query);
        const names = namesOf(page.items.map((summary) => summary.peer));
        return page.items.map((summary) => conversationView(summary, names[summary.peer]));
      },
      thread: (party, limit, offset) =>
        conversations.thread(party, limit, offset).items.map(threadMessageView),
    },
    drafts: createSendDrafts(clock),
    confirmSends: () => settings.current().mcp.confirm_sends !== false,
    toIncomingView,
  });
  const endpoint = createMcpEndpoint({
    tools,
    accessControl: parts.auth.accessControl,
    recordChange: parts.auth.recordChange,
    version: parts.version,
    logger,
  });
  return (api) => registerMcpRoutes(api, { endpoint });
}
