import { z } from 'zod';
import { toIsoWithOffset } from '../../../clock/isoTime.js';
import type { IncomingRecord } from '../../../contract/domain/incoming.js';
import {
  inboxExportSchema,
  inboxListQuerySchema,
  inboxRefreshSchema,
  incomingViewSchema,
} from '../../../contract/schemas/inboxSchemas.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { InboxReads } from '../../../services/inbox/inboxReads.js';
import { deliveryMode, type InboxReplay } from '../../../services/inbox/inboxReplay.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';
import { callerOfRequest } from '../routeCaller.js';

export interface InboxRouteDependencies {
  inbox: InboxReads;
  replay: InboxReplay;
}

export function toIncomingView(record: IncomingRecord): z.output<typeof incomingViewSchema> {
  return {
    id: record.id,
    type: record.type,
    deviceId: record.deviceId,
    sender: record.sender,
    recipient: record.recipient,
    simNumber: record.simNumber,
    contentPreview: record.content,
    port: record.port,
    incomplete: record.incomplete,
    createdAt: toIsoWithOffset(record.receivedAt),
    attachments: [],
  };
}

/** GET /inbox, GET /inbox/{id}, POST /inbox/refresh, POST /messages/inbox/export (and its aliases). */
export function registerInboxRoutes(api: ApiBuilder, deps: InboxRouteDependencies): void {
  api.route({
    method: 'get',
    path: '/inbox',
    summary: 'List received messages, newest first',
    tag: 'Inbox',
    access: { scope: 'inbox:list' },
    query: inboxListQuerySchema,
    responses: {
      200: {
        description: 'A page of received messages; X-Total-Count has the total',
        schema: z.array(incomingViewSchema),
      },
      ...errorResponses(400, ...authErrors),
    },
    async handle({ query, principal }) {
      const page = await deps.inbox.list(query, callerOfRequest(principal));
      return {
        status: 200,
        body: page.items.map(toIncomingView),
        headers: { 'X-Total-Count': String(page.total) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/inbox/:id',
    summary: 'Read one received message',
    tag: 'Inbox',
    access: { scope: 'inbox:read' },
    responses: {
      200: { description: 'The received message', schema: incomingViewSchema },
      ...errorResponses(400, 404, ...authErrors),
    },
    async handle({ params, principal }) {
      return {
        status: 200,
        body: toIncomingView(deps.inbox.get(params.id ?? '', callerOfRequest(principal))),
      };
    },
  });

  api.route({
    method: 'get',
    path: '/inbox/:id/attachments/:partId',
    summary: 'Download an MMS attachment part (none here: modems receive no MMS, so always 404)',
    tag: 'Inbox',
    access: { scope: 'inbox:read' },
    responses: { ...errorResponses(404, ...authErrors) },
    async handle({ params, principal }) {
      // The app answers 404 for unknown ids and parts; every stored message here is an SMS
      // without attachments, so every part is unknown — the message's own 404 comes first.
      const id = deps.inbox.get(params.id ?? '', callerOfRequest(principal)).id;
      throw new GatewayError(
        ErrorCode.NotFound,
        `received message ${id} has no attachment ${params.partId ?? ''}`,
        {
          field: 'partId',
        },
      );
    },
  });

  api.route({
    method: 'post',
    path: '/inbox/refresh',
    summary: 'Re-read modem storage; optionally send webhooks for the period',
    tag: 'Inbox',
    access: { scope: 'inbox:refresh' },
    body: inboxRefreshSchema,
    responses: { 202: { description: 'Refresh started' }, ...errorResponses(400, 415, ...authErrors) },
    async handle({ body }) {
      deps.replay.refresh(
        {
          since: body.since ?? undefined,
          until: body.until ?? undefined,
          deviceId: body.deviceId ?? undefined,
        },
        deliveryMode(body.webhookDelivery, body.triggerWebhooks, false),
      );
      return { status: 202 };
    },
  });

  api.route({
    method: 'post',
    path: '/messages/inbox/export',
    // `/message/…` as the app mounts its message routes twice (capcom6/android-sms-gateway
    // `modules/localserver/WebService.kt`); `/inbox/…` as the official npm client posts it.
    aliases: ['/message/inbox/export', '/inbox/export'],
    summary: 'Send webhooks for the received messages of the period (one each, or in batches)',
    tag: 'Inbox',
    access: { scope: 'messages:export' },
    body: inboxExportSchema,
    responses: {
      202: { description: 'Export started; an empty JSON object', schema: z.object({}) },
      ...errorResponses(400, 415, ...authErrors),
    },
    async handle({ body }) {
      await deps.replay.export(
        { since: body.since, until: body.until, deviceId: body.deviceId ?? undefined },
        deliveryMode(body.webhookDelivery, body.triggerWebhooks, true),
      );
      // client-php `src/Client.php` RequestInboxExport throws unless the answer decodes to an object.
      return { status: 202, body: {} };
    },
  });
}
