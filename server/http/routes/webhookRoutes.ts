import { z } from 'zod';
import type { Principal } from '../../auth/accessControl.js';
import { appIdOf } from '../../auth/appDirectory.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import { webhookInputSchema, webhookSchema } from '../../schemas/webhookSchemas.js';
import type { WebhookRecord, WebhookRegistry } from '../../webhooks/webhookRegistry.js';
import type { ApiBuilder } from '../defineRoute.js';
import { errorResponse } from '../responses.js';

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
        body: callersWebhooks(webhooks, principal).map(({ appId: _app, ...shown }) => shown),
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
      const appId = principal && appIdOf(principal.user);
      const id = body.id ?? undefined;
      const existing = id === undefined ? undefined : webhooks.get(id.trim());
      if (existing && appId !== undefined && existing.appId !== appId) {
        throw new GatewayError(ErrorCode.Conflict, `id: webhook ${id} belongs to another app`, {
          field: 'id',
        });
      }
      const { appId: _app, ...record } = await webhooks.upsert({
        id,
        url: body.url,
        event: body.event,
        deviceId: body.deviceId ?? body.device_id ?? undefined,
        // Replacing a webhook keeps it with the app that registered it.
        ...((existing?.appId ?? appId) === undefined ? {} : { appId: existing?.appId ?? appId }),
      });
      return { status: 201, body: record };
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
      const id = params.id ?? '';
      // Another app's webhook is as good as not registered: 204, and it stays.
      if (callersWebhooks(webhooks, principal).some((webhook) => webhook.id === id))
        await webhooks.remove(id);
      return { status: 204 };
    },
  });
}

/** An app's own webhooks; the default app's credentials (the owner login, people) see all. */
function callersWebhooks(webhooks: WebhookRegistry, principal: Principal | undefined): WebhookRecord[] {
  const appId = principal && appIdOf(principal.user);
  return appId === undefined ? webhooks.list() : webhooks.list().filter((webhook) => webhook.appId === appId);
}
