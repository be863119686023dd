import { z } from 'zod';
import { IncomingTypes } from '../domain/incoming.js';
import { WebhookDeliveryModes } from '../domain/webhookEvents.js';
import { dateTime, pageQuery, queryBoolean, searchQuery, timeRangeQuery } from './primitives.js';

/**
 * GET /inbox, POST /inbox/refresh and the inbox export (spec "Incoming message",
 * docs/decisions.md#inbox).
 */
export const inboxListQuerySchema = z.object({
  ...timeRangeQuery,
  ...pageQuery,
  type: z.enum(IncomingTypes).optional(),
  deviceId: z.string().min(1).optional(),
  ...searchQuery,
  /**
   * The app lists an MMS's attachment parts only when this is true, and refuses any other value
   * than true or false (capcom6/android-sms-gateway `modules/localserver/routes/InboxRoutes.kt`).
   * Our inbox keeps SMS and data SMS, which have no parts, so `attachments` is empty either way.
   */
  includeAttachments: queryBoolean
    .default(false)
    .describe('true: list each MMS attachment part; SMS and data SMS have none, so always []'),
});

const period = {
  since: dateTime,
  until: dateTime,
  deviceId: z.string().min(1).nullish(),
};

const webhookChoice = {
  triggerWebhooks: z.boolean().nullish(),
  webhookDelivery: z
    .enum(WebhookDeliveryModes)
    .nullish()
    .describe(
      'Disabled, Individual (one event per message) or Batch (sms:batch:* of up to 100); wins over triggerWebhooks',
    ),
};

function untilAfterSince<T extends { since?: number | null; until?: number | null }>(value: T): boolean {
  return value.since == null || value.until == null || value.until >= value.since;
}

/** Refresh re-reads modem storage; the period only selects which messages trigger webhooks. */
export const inboxRefreshSchema = z
  .object({
    since: period.since.nullish(),
    until: period.until.nullish(),
    deviceId: period.deviceId,
    ...webhookChoice,
  })
  .refine(untilAfterSince, { path: ['until'], message: 'must not be before since' });

export const inboxExportSchema = z
  .object({ ...period, ...webhookChoice })
  .refine(untilAfterSince, { path: ['until'], message: 'must not be before since' });

export type InboxRefreshRequest = z.output<typeof inboxRefreshSchema>;
export type InboxExportRequest = z.output<typeof inboxExportSchema>;

/** Upstream's incoming message record (docs/decisions.md#inbox), plus `deviceId`, `port` and `incomplete`. */
export const incomingViewSchema = z.object({
  id: z.string(),
  type: z.enum(IncomingTypes),
  deviceId: z.string(),
  sender: z.string(),
  recipient: z.string().optional(),
  simNumber: z.number().int().optional(),
  /** The whole text (SMS) or the Base64 bytes (DATA_SMS): SMS are short enough to send whole. */
  contentPreview: z.string(),
  port: z.number().int().optional(),
  incomplete: z.boolean().optional(),
  createdAt: z.string(),
  attachments: z.array(z.never()),
});
