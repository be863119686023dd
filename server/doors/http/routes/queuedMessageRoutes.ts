import { z } from 'zod';
import { WaitReasons } from '../../../contract/domain/holdReasons.js';
import { messageViewSchema } from '../../../contract/domain/messageView.js';
import { scheduledEditSchema } from '../../../contract/schemas/deskSchemas.js';
import type { MessageService } from '../../../services/messages/messageService.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';
import { callerOfRequest } from '../routeCaller.js';

/** Most ids one question about waiting messages may name: a page of the message list and more. */
const MaxWaitIds = 200;

const waitsQuerySchema = z.object({
  ids: z
    .string()
    .min(1, 'must name at least one message id')
    .transform((ids) => ids.split(',').filter((id) => id !== ''))
    .refine((ids) => ids.length <= MaxWaitIds, `must name at most ${MaxWaitIds} message ids`)
    .describe('message ids, comma-separated'),
});

const waitsSchema = z.record(
  z.string(),
  z.object({
    reason: z.enum(WaitReasons),
    detail: z.string(),
    nextAttemptAt: z.number().optional().describe('when the gateway looks again by itself (ms)'),
  }),
);

/**
 * Our extensions for queued messages (docs/desk.md "Scheduling"): their time or text, until a
 * modem takes them, and why each waits.
 */
export function registerQueuedMessageRoutes(api: ApiBuilder, deps: { messages: MessageService }): void {
  const tag = 'Messages (extension)';
  api.route({
    method: 'patch',
    path: '/gateway/v1/messages/:id',
    summary: 'Edit the time (scheduleAt) or text of a message no modem has taken yet',
    tag,
    access: { scope: 'messages:send' },
    body: scheduledEditSchema,
    responses: {
      200: { description: 'The message state after the edit', schema: messageViewSchema },
      ...errorResponses(400, 404, 415, ...authErrors),
    },
    async handle({ params, body, principal }) {
      const message = await deps.messages.editScheduled(params.id ?? '', body, callerOfRequest(principal));
      return { status: 200, body: deps.messages.view(message) };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/messages/waiting',
    summary: 'Why each of the named queued messages waits, and until when',
    tag,
    access: { scope: 'messages:read' },
    query: waitsQuerySchema,
    responses: {
      200: {
        description: 'by id, for the named messages still queued; the others are left out',
        schema: waitsSchema,
      },
      ...errorResponses(400, ...authErrors),
    },
    async handle({ query, principal }) {
      return { status: 200, body: deps.messages.waits(query.ids, callerOfRequest(principal)) };
    },
  });
}
