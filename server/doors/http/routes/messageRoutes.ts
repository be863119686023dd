import { z } from 'zod';
import { messageViewSchema } from '../../../contract/domain/messageView.js';
import {
  messageListQuerySchema,
  messageRequestSchema,
  sendQuerySchema,
} from '../../../contract/schemas/messageSchemas.js';
import type { MessageService } from '../../../services/messages/messageService.js';
import { type ApiBuilder, JsonText } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';
import { callerOfRequest } from '../routeCaller.js';

export interface MessageRouteDependencies {
  messages: MessageService;
}

/**
 * POST/GET /messages, GET/DELETE /messages/{id} (spec: Endpoints), with the `/message` alias.
 * The service applies what the caller may do: an app's credentials (auth/appDirectory.ts) queue
 * messages as that app, within its quota, and see only those.
 */
export function registerMessageRoutes(api: ApiBuilder, deps: MessageRouteDependencies): void {
  api.route({
    method: 'post',
    path: '/messages',
    aliases: ['/message'],
    summary: 'Enqueue a message',
    tag: 'Messages',
    access: { scope: 'messages:send' },
    body: messageRequestSchema,
    query: sendQuerySchema,
    responses: {
      202: { description: 'Queued; Location names the state URL', schema: messageViewSchema },
      ...errorResponses(400, 409, 413, 415, 503, ...authErrors),
      429: {
        description:
          "the app's quota of SMS (one per recipient) for the day or month has not room for these; Retry-After says until when",
      },
    },
    async handle({ body, query, ctx, principal }) {
      const message = await deps.messages.enqueue(
        {
          message: body,
          skipPhoneValidation: query.skipPhoneValidation,
          deviceActiveWithinHours: query.deviceActiveWithin,
        },
        callerOfRequest(principal),
      );
      // Relative to the path the client used, so every mount and alias points back at itself.
      const location = `${ctx.path.replace(/\/+$/, '')}/${encodeURIComponent(message.id)}`;
      return {
        status: 202,
        body: deps.messages.view(message),
        headers: { Location: location },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/messages',
    aliases: ['/message'],
    summary: 'List messages, newest first unless sort=created_at',
    tag: 'Messages',
    access: { scope: 'messages:list' },
    query: messageListQuerySchema,
    responses: {
      200: {
        description: 'A page of message states; X-Total-Count has the total',
        schema: z.array(messageViewSchema),
      },
      ...errorResponses(400, ...authErrors),
    },
    async handle({ query, principal }) {
      const page = await deps.messages.list(
        {
          from: query.from,
          to: query.to,
          state: query.state,
          deviceId: query.deviceId,
          search: query.search,
          ...(query.anyRecipientFailed && { anyRecipientFailed: true }),
          oldestFirst: query.sort === 'created_at',
          limit: query.limit,
          offset: query.offset,
        },
        { withContent: query.includeContent },
        callerOfRequest(principal),
      );
      return {
        status: 200,
        body: new JsonText(page.json),
        headers: { 'X-Total-Count': String(page.total) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/messages/:id',
    aliases: ['/message/:id'],
    summary: 'Read one message state, with its content',
    tag: 'Messages',
    access: { scope: 'messages:read' },
    responses: {
      200: { description: 'The message state', schema: messageViewSchema },
      ...errorResponses(400, 404, ...authErrors),
    },
    async handle({ params, principal }) {
      return {
        status: 200,
        body: deps.messages.view(deps.messages.get(params.id ?? '', callerOfRequest(principal))),
      };
    },
  });

  api.route({
    method: 'delete',
    path: '/messages/:id',
    aliases: ['/message/:id'],
    summary: 'Cancel a pending message',
    tag: 'Messages',
    access: { scope: 'messages:cancel' },
    responses: {
      200: { description: 'The message state after cancellation', schema: messageViewSchema },
      ...errorResponses(400, 404, ...authErrors),
    },
    async handle({ params, principal }) {
      const message = await deps.messages.cancel(params.id ?? '', callerOfRequest(principal));
      return { status: 200, body: deps.messages.view(message) };
    },
  });
}
