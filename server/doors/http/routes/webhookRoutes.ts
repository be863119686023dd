import { z } from 'zod';
import { deliveryListQuerySchema } from '../../../contract/schemas/gatewaySchemas.js';
import { webhookDeliveryViewSchema } from '../../../contract/schemas/gatewayViewSchemas.js';
import { webhookInputSchema, webhookSchema } from '../../../contract/schemas/webhookSchemas.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { WebhookDispatcher } from '../../../services/webhooks/webhookDispatcher.js';
import type { WebhookRecord, WebhookRegistry } from '../../../services/webhooks/webhookRegistry.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponse, errorResponses } from '../responses.js';
import { callerOfRequest } from '../routeCaller.js';

/**
 * Webhook registration (spec: Endpoints /webhooks; Events, registration rules). The singular
 * `/webhook` alias is what upstream clients call in Local mode (docs/decisions.md#mounts).
 *
 * DELETE answers 204 whether or not the id was registered: the spec leaves the status open,
 * upstream answers 204 either way, and clients treat removal as idempotent cleanup, so a 404
 * would only break a retry of a delete whose first answer was lost.
 */
export interface WebhookRouteDependencies {
  webhooks: WebhookRegistry;
}

const tag = 'Webhooks';

export function registerWebhookRoutes(api: ApiBuilder, deps: WebhookRouteDependencies): void {
  const { webhooks } = deps;

  api.route({
    method: 'get',
    path: '/webhooks',
    aliases: ['/webhook'],
    summary: 'List registered webhooks',
    tag,
    access: { scope: 'webhooks:list' },
    responses: {
      200: { description: 'every registered webhook', schema: z.array(webhookSchema) },
      401: errorResponse('missing or wrong credentials'),
      403: errorResponse('the token lacks webhooks:list'),
    },
    async handle({ principal }) {
      return {
        status: 200,
        body: webhooks.listFor(callerOfRequest(principal)).map(shown),
      };
    },
  });

  api.route({
    method: 'post',
    path: '/webhooks',
    aliases: ['/webhook'],
    summary: 'Register a webhook, or replace the one with the same id',
    tag,
    access: { scope: 'webhooks:write' },
    body: webhookInputSchema,
    responses: {
      201: { description: 'the stored webhook', schema: webhookSchema },
      400: errorResponse('URL not https/loopback, unknown event, bad id'),
      401: errorResponse('missing or wrong credentials'),
      403: errorResponse('the token lacks webhooks:write, or the id is managed by the private server'),
    },
    async handle({ body, principal }) {
      const record = await webhooks.register(
        {
          id: body.id ?? undefined,
          url: body.url,
          event: body.event,
          deviceId: body.deviceId ?? body.device_id ?? undefined,
        },
        callerOfRequest(principal),
      );
      return { status: 201, body: shown(record) };
    },
  });

  api.route({
    method: 'delete',
    path: '/webhooks/:id',
    aliases: ['/webhook/:id'],
    summary: 'Remove a webhook (204 also when the id is not registered)',
    tag,
    access: { scope: 'webhooks:delete' },
    responses: {
      204: { description: 'removed, or was not registered' },
      401: errorResponse('missing or wrong credentials'),
      403: errorResponse('the token lacks webhooks:delete, or the webhook is managed by the private server'),
    },
    async handle({ params, principal }) {
      // Another app's webhook is as good as not registered: 204, and it stays.
      await webhooks.removeFor(params.id ?? '', callerOfRequest(principal));
      return { status: 204 };
    },
  });
}

/** A webhook as the API shows it: which app registered it is ours to know. */
function shown({ appId: _app, ...record }: WebhookRecord): Omit<WebhookRecord, 'appId'> {
  return record;
}

/** What each webhook was sent, with every attempt; sending failed ones again; a test event. */
export function registerWebhookDeliveryRoutes(
  api: ApiBuilder,
  deps: { deliveries: Pick<WebhookDispatcher, 'list' | 'resend' | 'sendTest'> },
): void {
  api.route({
    method: 'get',
    path: '/gateway/v1/webhooks/deliveries',
    summary: 'Webhook deliveries with their attempts, status codes and errors, newest first',
    tag: 'Webhooks',
    access: { scope: 'webhooks:list' },
    query: deliveryListQuerySchema,
    responses: {
      200: { description: 'Deliveries', schema: z.array(webhookDeliveryViewSchema) },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ query }) => ({ status: 200, body: deps.deliveries.list(query) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/webhooks/deliveries/resend',
    summary: 'Send failed deliveries again: those named, or every failed one (of one webhook)',
    tag: 'Webhooks',
    access: { scope: 'webhooks:write' },
    body: z.object({
      ids: z
        .array(z.string().min(1))
        .min(1)
        .max(1000)
        .optional()
        .describe('deliveries; absent: every failed one'),
      webhookId: z.string().min(1).optional().describe('only the failed deliveries of this webhook'),
    }),
    responses: {
      202: { description: 'The deliveries queued again', schema: z.array(webhookDeliveryViewSchema) },
      ...errorResponses(400, 415, ...authErrors),
    },
    handle: async ({ body }) => ({ status: 202, body: await deps.deliveries.resend(body) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/webhooks/:id/test',
    summary: "Send a test event of the webhook's own kind to it",
    tag: 'Webhooks',
    access: { scope: 'webhooks:write' },
    responses: {
      202: { description: 'Queued', schema: webhookDeliveryViewSchema },
      ...errorResponses(404, ...authErrors),
    },
    handle: async ({ params }) => {
      const delivery = await deps.deliveries.sendTest(params.id ?? '');
      if (!delivery)
        throw new GatewayError(ErrorCode.NotFound, `webhook ${params.id} not found`, { field: 'id' });
      return { status: 202, body: delivery };
    },
  });
}
