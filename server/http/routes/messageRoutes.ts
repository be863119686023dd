import { z } from 'zod';
import type { Principal } from '../../auth/accessControl.js';
import { appIdOf } from '../../auth/appDirectory.js';
import type { AppQuotas } from '../../auth/appQuotas.js';
import type { MessageRecord } from '../../domain/message.js';
import { messageViewSchema } from '../../domain/messageView.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { MessageService } from '../../messages/messageService.js';
import {
  messageListQuerySchema,
  messageRequestSchema,
  sendQuerySchema,
} from '../../schemas/messageSchemas.js';
import { type ApiBuilder, JsonText } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

export interface MessageRouteDependencies {
  messages: MessageService;
  /** Each app's quota: admits (counts) a message before it is queued (auth/appQuotas.ts). */
  quotas: Pick<AppQuotas, 'admit'>;
}

/**
 * POST/GET /messages, GET/DELETE /messages/{id} (spec: Endpoints), with the `/message` alias.
 * An app's credentials (auth/appDirectory.ts) queue messages as that app, within its quota,
 * and see only those: another app's message is not found.
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
      429: { description: "the app's quota for the day or month is used up; Retry-After says until when" },
    },
    async handle({ body, query, ctx, principal }) {
      const appId = principal && appIdOf(principal.user);
      const giveBack = appId === undefined ? undefined : deps.quotas.admit(appId);
      let message: MessageRecord;
      try {
        message = await deps.messages.enqueue({
          message: body,
          skipPhoneValidation: query.skipPhoneValidation,
          deviceActiveWithinHours: query.deviceActiveWithin,
          ...(appId === undefined ? {} : { appId }),
        });
      } catch (error) {
        giveBack?.();
        throw error;
      }
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
      const appId = principal && appIdOf(principal.user);
      const page = await deps.messages.list(
        {
          ...(appId === undefined ? {} : { appId }),
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
        body: deps.messages.view(callersMessage(deps.messages, params.id ?? '', principal)),
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
      const message = await deps.messages.cancel(
        callersMessage(deps.messages, params.id ?? '', principal).id,
      );
      return { status: 200, body: deps.messages.view(message) };
    },
  });
}

/** The message, if the caller may see it: an app sees only its own (404 for another's, as for none). */
function callersMessage(
  messages: MessageService,
  id: string,
  principal: Principal | undefined,
): MessageRecord {
  const message = messages.get(id);
  const appId = principal && appIdOf(principal.user);
  if (appId !== undefined && message.appId !== appId) {
    throw new GatewayError(ErrorCode.NotFound, `message ${id} not found`);
  }
  return message;
}
