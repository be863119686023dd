import { z } from 'zod';
import { HoldReasons } from '../domain/holdReasons.js';
import { JobKinds, JobStates } from '../domain/outboxJob.js';
import { type RefusedPort, RefusedPortCodes } from '../domain/portRefusal.js';
import { TrafficDirections } from '../domain/trafficLine.js';
import { fleetStatusSchema } from './fleetStatusSchema.js';

/**
 * What our /gateway/v1/ extensions answer with (server/doors/http/routes/gatewayRoutes.ts): the gateway's
 * status, webhook deliveries, serial ports, AT log lines. Pure, so the UI takes its types from here.
 */

/** GET /gateway/v1/status. The server builds it as this type, so the schema cannot drift from it. */
export const gatewayStatusSchema = z.object({
  version: z.string(),
  simulated: z.boolean(),
  /** A HiLink stick's network adapter seen on this PC but not in use. */
  hilinkAdapter: z.object({ interfaceName: z.string(), url: z.string() }).optional(),
  sendingPaused: z.boolean(),
  scheduler: z.object({
    pending: z.number().int(),
    sending: z.number().int(),
    holding: z
      .object({
        reason: z.enum(HoldReasons),
        detail: z.string(),
        nextAttemptAt: z.number().optional(),
        /** The modem the hold is about, when one is; `simNumber`: its capped SIM slot. */
        deviceId: z.string().optional(),
        simNumber: z.number().int().optional(),
      })
      .optional(),
  }),
  webhooks: z.object({
    pending: z.number().int(),
    failedLastHour: z.number().int(),
    /** A signing key is set: deliveries carry X-Signature. */
    signed: z.boolean(),
    /** By id: a webhook's URL is for `webhooks:list` (server/services/webhooks/webhookDispatcher.ts). */
    lastFailure: z.object({ webhookId: z.string(), error: z.string(), at: z.number() }).optional(),
  }),
  /** Per kind of owed delivery (webhook, mail, smpp, fleet-report): what waits, what was given up. */
  outbox: z.record(
    z.enum(JobKinds),
    z.object({
      pending: z.number().int(),
      oldestPendingAt: z.number().optional(),
      givenUpLastHour: z.number().int(),
    }),
  ),
  fleet: fleetStatusSchema,
});

export type GatewayStatus = z.output<typeof gatewayStatusSchema>;

export const webhookDeliveryViewSchema = z.object({
  id: z.string(),
  webhookId: z.string(),
  url: z.string(),
  event: z.string(),
  deviceId: z.string(),
  state: z.enum(JobStates),
  createdAt: z.number(),
  nextAttemptAt: z.number(),
  attemptCount: z.number().int(),
  attempts: z.array(
    z.object({
      at: z.number(),
      status: z.number().optional(),
      error: z.string().optional(),
      durationMs: z.number(),
    }),
  ),
  lastError: z.string().optional(),
  finishedAt: z.number().optional(),
  payload: z.record(z.string(), z.unknown()),
});

export const serialPortViewSchema = z.object({
  path: z.string(),
  manufacturer: z.string().optional(),
  vendorId: z.string().optional(),
  productId: z.string().optional(),
  serialNumber: z.string().optional(),
  pnpId: z.string().optional(),
  inUse: z.boolean(),
});

/** GET /gateway/v1/serial-ports/refused: built as `RefusedPort`, so the schema cannot drift from it. */
export const refusedPortViewSchema = z.object({
  path: z.string(),
  code: z.enum(RefusedPortCodes).describe('the GatewayError code the open failed with'),
  fix: z
    .string()
    .optional()
    .describe('the shell command that lets this user open the port, then log out and back in (Linux only)'),
}) satisfies z.ZodType<RefusedPort>;

export const atLogLineViewSchema = z.object({
  at: z.string(),
  direction: z.enum(TrafficDirections),
  line: z.string(),
});
