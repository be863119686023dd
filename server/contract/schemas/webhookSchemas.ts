import { z } from 'zod';
import { WebhookEventNames } from '../domain/webhookEvents.js';

/**
 * A registered webhook and the body that registers one (spec: Endpoints /webhooks;
 * server/doors/http/routes/webhookRoutes.ts). Pure, so the UI takes its webhook type from here.
 */
export const webhookSchema = z.object({
  id: z.string().describe('webhook id; registering an existing id replaces that webhook'),
  url: z
    .string()
    .describe(
      'https:// URL, or http:// to 127.0.0.1, localhost or [::1]; with webhooks.allow_lan_http also to the local network',
    ),
  event: z.enum(WebhookEventNames),
  deviceId: z.string().optional().describe('only events from this device; absent: every device'),
  source: z
    .literal('server')
    .optional()
    .describe('ours: set by the private server in fleet mode, which alone may change or remove it'),
});

export const webhookInputSchema = z.object({
  id: z.string().nullish().describe('absent: generated; an existing id replaces that webhook'),
  url: z
    .string()
    .describe(
      'https:// URL, or http:// to 127.0.0.1, localhost or [::1]; with webhooks.allow_lan_http also to the local network',
    ),
  event: z.enum(WebhookEventNames),
  deviceId: z.string().nullish().describe('only events from this device; absent: every device'),
  // client-rs `src/types/webhook.rs` Webhook has no `rename_all`, so it sends `device_id`.
  device_id: z.string().nullish().describe('deviceId, as the Rust client spells it'),
});
