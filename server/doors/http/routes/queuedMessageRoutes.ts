import { messageViewSchema } from '../../../contract/domain/messageView.js';
import { scheduledEditSchema } from '../../../contract/schemas/deskSchemas.js';
import type { MessageService } from '../../../services/messages/messageService.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/** Our extension (docs/desk.md "Scheduling"): a queued message's time or text, until a modem takes it. */
export function registerScheduledMessageRoutes(api: ApiBuilder, deps: { messages: MessageService }): void {
  api.route({
    method: 'patch',
    path: '/gateway/v1/messages/:id',
    summary: 'Edit the time (scheduleAt) or text of a message no modem has taken yet',
    tag: 'Messages (extension)',
    access: { scope: 'messages:send' },
    body: scheduledEditSchema,
    responses: {
      200: { description: 'The message state after the edit', schema: messageViewSchema },
      ...errorResponses(400, 404, 415, ...authErrors),
    },
    async handle({ params, body }) {
      const message = await deps.messages.editScheduled(params.id ?? '', body);
      return { status: 200, body: deps.messages.view(message) };
    },
  });
}
