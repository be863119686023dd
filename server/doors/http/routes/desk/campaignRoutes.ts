import { z } from 'zod';
import { MessageStates } from '../../../../contract/domain/message.js';
import { MaxTextLength } from '../../../../contract/schemas/messageSchemas.js';
import { dateTime, pageQuery } from '../../../../contract/schemas/primitives.js';
import {
  type CampaignService,
  MaxCampaignIdLength,
  MaxCampaignRecipients,
} from '../../../../services/desk/campaigns/campaignService.js';
import type { ApiBuilder } from '../../defineRoute.js';
import { accessErrors, errorResponse } from '../../responses.js';
import { callerOfRequest } from '../../routeCaller.js';

const campaignRequestSchema = z.object({
  id: z
    .string()
    .regex(
      new RegExp(`^[A-Za-z0-9_-]{1,${MaxCampaignIdLength}}$`),
      `must be 1 to ${MaxCampaignIdLength} of A-Z a-z 0-9 _ -`,
    )
    .optional()
    .describe(
      'your own id for the campaign, as a message’s `id`: POST again with the same id and request after a lost answer and get the campaign it started (no new messages); the preview ignores it',
    ),
  name: z.string().max(200).optional(),
  text: z
    .string()
    .min(1, 'must not be empty')
    .max(MaxTextLength)
    .describe('placeholders such as {name} or {order} take each recipient’s values'),
  recipients: z
    .object({
      phoneNumbers: z
        .array(z.string().max(40))
        .max(MaxCampaignRecipients)
        .optional()
        .describe('numbers as typed'),
      contactIds: z.array(z.string()).max(MaxCampaignRecipients).optional(),
      groupIds: z.array(z.string()).max(1000).optional(),
      rows: z
        .array(
          z.object({
            phoneNumber: z.string().max(40),
            fields: z.record(z.string(), z.string()).optional().describe('values for the placeholders'),
          }),
        )
        .max(MaxCampaignRecipients)
        .optional()
        .describe('rows of an uploaded CSV'),
    })
    .describe('any mix; the same number counts once'),
  withDeliveryReport: z.boolean().optional(),
  deviceId: z.string().optional(),
  simNumber: z.number().int().min(1).max(3).optional(),
  priority: z.number().int().min(-128).max(127).optional(),
  scheduleAt: dateTime.optional().describe('not sent before this instant (ISO 8601 with Z or an offset)'),
  skipProblems: z
    .boolean()
    .optional()
    .describe(
      'send to the rest when some recipients have a problem (a number that cannot be read, a placeholder without a value); without it any problem refuses the campaign whole',
    ),
});

const previewSchema = z.object({
  recipients: z.number().int(),
  duplicates: z.number().int(),
  removed: z.record(z.string(), z.number().int()).describe('recipients each filter (e.g. opt-out) removed'),
  partsPerMessage: z.object({ min: z.number().int(), max: z.number().int() }),
  totalParts: z.number().int(),
  samples: z.array(
    z.object({
      phoneNumber: z.string(),
      name: z.string().optional(),
      text: z.string(),
      parts: z.number().int(),
    }),
  ),
  problems: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .describe('the first 100 recipients with a problem'),
  problemCount: z.number().int().describe('every recipient with a problem, listed or not'),
});

const campaignSchema = z.object({
  id: z.string(),
  name: z.string(),
  text: z.string(),
  createdAt: z.number(),
  recipients: z.number().int(),
  totalParts: z.number().int(),
  cancelledAt: z.number().optional(),
  scheduleAt: z.number().optional().describe('its messages are not sent before this instant (ms)'),
  state: z
    .enum(['Queueing', 'Running', 'Completed', 'Cancelled', 'Interrupted'])
    .describe(
      'Queueing: its messages are being written; Interrupted: that was cut short (a crash, a full queue) — POST it again with its id to complete it, or cancel it',
    ),
  progress: z.object({
    queued: z.number().int(),
    sent: z.number().int().describe('Sent or Delivered'),
    delivered: z.number().int(),
    failed: z.number().int(),
    cancelled: z.number().int(),
    percent: z.number().int().describe('share of recipients whose message went out or failed (0–100)'),
  }),
});

/** Bulk sends: preview, start (one action; retried safely under the client's id), follow and cancel. */
const recipientReportSchema = z.object({
  messageId: z.string(),
  phoneNumber: z.string(),
  state: z.enum(MessageStates),
  error: z.string().optional(),
  queuedAt: z.string().optional(),
  sentAt: z.string().optional(),
  deliveredAt: z.string().optional(),
  failedAt: z.string().optional(),
  cancelledAt: z.string().optional(),
});

export function registerCampaignRoutes(api: ApiBuilder, deps: { campaigns: CampaignService }): void {
  const { campaigns } = deps;
  const tag = 'Campaigns';

  api.route({
    method: 'post',
    path: '/gateway/v1/campaigns/preview',
    summary: 'What a campaign would send: recipients after de-duplication and filters, parts, problems',
    tag,
    access: { scope: 'campaigns:send' },
    body: campaignRequestSchema,
    responses: {
      200: { description: 'the preview', schema: previewSchema },
      400: errorResponse('a field is wrong'),
      ...accessErrors('campaigns:send'),
    },
    async handle({ body }) {
      return { status: 200, body: await campaigns.preview(body) };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/campaigns',
    summary: 'Queue a campaign: one message per recipient; with an id, safe to retry',
    tag,
    access: { scope: 'campaigns:send' },
    body: campaignRequestSchema,
    responses: {
      202: {
        description: 'queued; or, for an id already used with this request, that campaign',
        schema: campaignSchema,
      },
      400: errorResponse(
        'a recipient has a problem (named) and skipProblems was not given; nothing was queued',
      ),
      409: errorResponse('the id was used for another request'),
      503: errorResponse('the queue cannot take that many messages'),
      ...accessErrors('campaigns:send'),
    },
    async handle({ body, principal }) {
      const campaign = await campaigns.start(body, callerOfRequest(principal));
      return { status: 202, body: campaign, headers: { Location: `/gateway/v1/campaigns/${campaign.id}` } };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/campaigns',
    summary: 'Campaigns, newest first, with progress; X-Total-Count has the total',
    tag,
    access: { scope: 'campaigns:read' },
    query: z.object(pageQuery),
    responses: {
      200: { description: 'a page of campaigns', schema: z.array(campaignSchema) },
      ...accessErrors('campaigns:read'),
    },
    async handle({ query }) {
      const page = campaigns.list(query.limit, query.offset);
      return { status: 200, body: page.items, headers: { 'X-Total-Count': String(page.total) } };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/campaigns/:id',
    summary: 'One campaign with its progress',
    tag,
    access: { scope: 'campaigns:read' },
    responses: {
      200: { description: 'the campaign', schema: campaignSchema },
      404: errorResponse('no such campaign'),
      ...accessErrors('campaigns:read'),
    },
    async handle({ params }) {
      return { status: 200, body: campaigns.get(params.id ?? '') };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/campaigns/:id/recipients',
    summary: 'The campaign report: each recipient in list order with state, error and times',
    tag,
    access: { scope: 'campaigns:read' },
    query: z.object(pageQuery),
    responses: {
      200: {
        description: 'a page of recipients; X-Total-Count has the total',
        schema: z.array(recipientReportSchema),
      },
      404: errorResponse('no such campaign'),
      ...accessErrors('campaigns:read'),
    },
    async handle({ params, query }) {
      const page = campaigns.report(params.id ?? '', query.limit, query.offset);
      return { status: 200, body: page.items, headers: { 'X-Total-Count': String(page.total) } };
    },
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/campaigns/:id/cancel',
    summary: 'Cancel every message of the campaign still waiting in the queue',
    tag,
    access: { scope: 'campaigns:cancel' },
    responses: {
      200: { description: 'the campaign after cancelling', schema: campaignSchema },
      404: errorResponse('no such campaign'),
      ...accessErrors('campaigns:cancel'),
    },
    async handle({ params }) {
      return { status: 200, body: await campaigns.cancel(params.id ?? '') };
    },
  });
}
