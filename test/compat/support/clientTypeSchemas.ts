import {
  type Device,
  type HealthResponse,
  HealthStatus,
  type LogEntry,
  LogEntryPriority,
  type MessageState,
  ProcessState,
  type WebHook,
  WebHookEventType,
} from 'android-sms-gateway';
import { z } from 'zod';

/**
 * The official client's declared return types (android-sms-gateway 3.0.0, dist/index.d.ts) as
 * runtime checks. Each schema is typed against the client's own interface, so a schema that
 * drifted from the declaration would not compile: what passes here is what the client promises.
 */
const isoTimestamp = z.iso.datetime({ offset: true });

export const messageStateSchema: z.ZodType<MessageState> = z.object({
  id: z.string(),
  state: z.enum(ProcessState),
  recipients: z.array(
    z.object({
      phoneNumber: z.string(),
      state: z.enum(ProcessState),
      error: z.string().nullish(),
    }),
  ),
});

/**
 * `WebHook` is `Required<RegisterWebHookRequest>`, so it declares `deviceId: string | null`.
 * Upstream's Local-mode server (the Android app) serialises with Gson, which drops null fields, and
 * we omit null fields likewise (docs/decisions.md#errors-and-json): a webhook for every device has
 * no `deviceId` key. Clients read it as undefined, which their `=== null`-free code treats the same
 * way.
 */
export const webhookSchema: z.ZodType<Omit<WebHook, 'deviceId'> & { deviceId?: string | null }> = z.object({
  id: z.string(),
  url: z.string(),
  event: z.enum(WebHookEventType),
  deviceId: z.string().nullish(),
});

export const deviceSchema: z.ZodType<Device> = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoTimestamp,
  lastSeen: isoTimestamp,
  updatedAt: isoTimestamp,
  deletedAt: isoTimestamp.nullish(),
});

export const healthResponseSchema: z.ZodType<HealthResponse> = z.object({
  status: z.enum(HealthStatus),
  version: z.string(),
  releaseId: z.number(),
  checks: z.record(
    z.string(),
    z.object({
      status: z.enum(HealthStatus),
      description: z.string(),
      observedValue: z.number(),
      observedUnit: z.string(),
    }),
  ),
});

export const logEntrySchema: z.ZodType<LogEntry> = z.object({
  id: z.number().int(),
  createdAt: isoTimestamp,
  module: z.string(),
  priority: z.enum(LogEntryPriority),
  message: z.string(),
  context: z.record(z.string(), z.string()).optional(),
});

/**
 * What GET /settings answers: the spec's snake_case groups ("Settings" table). The client's
 * `DeviceSettings` declares camelCase keys (`sendIntervalMin`), which disagrees with the spec;
 * the client hands the JSON through untouched, so callers see the spec's keys. Our server also
 * accepts the client's camelCase keys on PUT and PATCH, so its writes work unchanged.
 */
export const settingsSchema = z.object({
  messages: z.object({
    limit_period: z.string(),
    sim_selection_mode: z.string(),
    send_interval_min: z.number().optional(),
    send_interval_max: z.number().optional(),
  }),
  webhooks: z.object({ internet_required: z.boolean(), retry_count: z.number() }),
  logs: z.object({ lifetime_days: z.number() }),
});

/** Throws with every mismatch listed, so a failing test names the field at fault. */
export function expectShape<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new Error(`${what} is not what the client declares:\n${z.prettifyError(result.error)}`);
  return result.data;
}
