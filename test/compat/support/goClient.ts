import { z } from 'zod';
import { ClientRefusal, decodeAs, jsonOf, rfc3339 } from './clientWire.js';
import type { ApiResponse, GatewayUnderTest } from './gatewayUnderTest.js';

/**
 * The Go client (android-sms-gateway/client-go, smsgateway package) as the Go suite and the CLI
 * suite use it: the request `rest/client.go` `do` builds and the answers it accepts, and its
 * types as encoding/json decodes them. encoding/json takes names from the `json:"…"` tags,
 * `time.Time` from an RFC 3339 string, refuses a value of the wrong JSON type (a fraction into
 * an `int`), ignores unknown keys and leaves missing ones zero; the schemas below require the
 * fields whose zero value would be wrong (`validate:"required"` in the client's structs).
 */

/** `Config` BaseURL + path; the Basic header `NewClient` builds (user and password given). */
export interface GoRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** `json.Marshal(payload)`, sent with Content-Type application/json. */
  json?: unknown;
  /** `RefreshToken` replaces the Authorization header with the refresh token. */
  authorization?: string;
}

/**
 * `rest/client.go` `do`: a status ≥ 400 is an error (ErrBadRequest, ErrConflict, ErrClient,
 * ErrServer); 204 returns without decoding; otherwise, when the call passes a response value,
 * `json.NewDecoder(resp.Body).Decode` must succeed. Calls that pass nil ignore the body.
 */
export async function goCall(
  gateway: GatewayUnderTest,
  request: GoRequest,
  decodesAnswer: boolean,
): Promise<{ response: ApiResponse; value: unknown }> {
  const response = await gateway.request(request.method, request.path, {
    json: request.json,
    authorization: request.authorization,
    // Go's net/http sends this User-Agent and no Accept header, which means any type.
    headers: { 'User-Agent': 'Go-http-client/1.1', Accept: '*/*' },
  });
  const what = `client-go ${request.method} ${request.path}`;
  if (response.status >= 400) throw new ClientRefusal(`${what}: ${response.status} ${response.text}`);
  if (response.status === 204 || !decodesAnswer) return { response, value: undefined };
  return { response, value: jsonOf(response, what) };
}

/** Decodes with one of the schemas below, naming the Go call in a failure. */
export function goDecode<T>(schema: z.ZodType<T>, value: unknown, call: string): T {
  return decodeAs(schema, value, `client-go ${call}`);
}

const goString = z.string();
const goInt = z.number().int();

/** `domain_messages.go` RecipientState. */
const recipientState = z.object({
  phoneNumber: goString.min(1),
  state: goString.min(1),
  error: goString.nullish(),
});

/** `domain_messages.go` MessageState: id, deviceId, state and recipients are `validate:"required"`. */
export const goMessageState = z.object({
  id: goString.min(1),
  deviceId: goString.min(1),
  state: z.enum(['Pending', 'Processed', 'Sent', 'Delivered', 'Failed', 'Cancelled']),
  isHashed: z.boolean().optional(),
  isEncrypted: z.boolean().optional(),
  recipients: z.array(recipientState).min(1),
  states: z.record(goString, rfc3339).optional(),
  textMessage: z.object({ text: goString }).optional(),
  dataMessage: z.object({ data: goString, port: goInt.min(0).max(65_535) }).optional(),
});

/** `domain_devices.go` Device and SimCard. */
export const goDevice = z.object({
  id: goString.min(1),
  name: goString,
  createdAt: rfc3339,
  updatedAt: rfc3339,
  deletedAt: rfc3339.nullish(),
  lastSeen: rfc3339,
  simCards: z
    .array(
      z.object({
        slotIndex: goInt,
        simNumber: goInt,
        phoneNumber: goString.nullish(),
        carrierName: goString.nullish(),
        iccid: goString.nullish(),
      }),
    )
    .optional(),
});

/** `responses_health.go` HealthResponse; `observedValue` is an `int`. */
export const goHealthResponse = z.object({
  status: z.enum(['pass', 'warn', 'fail']),
  version: goString.optional(),
  releaseId: goInt.optional(),
  checks: z
    .record(
      goString,
      z.object({
        description: goString.optional(),
        observedUnit: goString.optional(),
        observedValue: goInt,
        status: z.enum(['pass', 'warn', 'fail']),
      }),
    )
    .optional(),
});

/** `domain_logs.go` LogEntry: `id` is a uint64, `context` a map[string]any. */
export const goLogEntry = z.object({
  id: goInt.min(0),
  priority: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']),
  module: goString,
  message: goString,
  context: z.record(goString, z.unknown()).nullish(),
  createdAt: rfc3339,
});

/** `dto_inbox.go` IncomingMessage: `simNumber` is a *uint8. */
export const goIncomingMessage = z.object({
  id: goString.min(1),
  type: z.enum(['SMS', 'DATA_SMS', 'MMS', 'MMS_DOWNLOADED']),
  sender: goString.min(1),
  recipient: goString.nullish(),
  simNumber: goInt.min(0).max(255).nullish(),
  contentPreview: goString,
  createdAt: rfc3339,
});

const optionalInt = goInt.nullish();
const optionalText = goString.nullish();
const optionalFlag = z.boolean().nullish();

/** `domain_settings.go` DeviceSettings: every group and key a pointer, snake_case names. */
export const goDeviceSettings = z.object({
  encryption: z.object({ passphrase: optionalText }).nullish(),
  messages: z
    .object({
      send_interval_min: optionalInt,
      send_interval_max: optionalInt,
      limit_period: z.enum(['Disabled', 'PerMinute', 'PerHour', 'PerDay']).nullish(),
      limit_value: optionalInt,
      sim_selection_mode: z.enum(['OSDefault', 'RoundRobin', 'Random']).nullish(),
      log_lifetime_days: optionalInt,
      processing_order: z.enum(['LIFO', 'FIFO']).nullish(),
    })
    .nullish(),
  ping: z.object({ interval_seconds: optionalInt }).nullish(),
  logs: z.object({ lifetime_days: optionalInt }).nullish(),
  webhooks: z
    .object({ internet_required: optionalFlag, retry_count: optionalInt, signing_key: optionalText })
    .nullish(),
  gateway: z
    .object({
      cloud_url: optionalText,
      private_token: optionalText,
      notification_channel: z.enum(['AUTO', 'SSE_ONLY']).nullish(),
    })
    .nullish(),
  receiver: z.object({ content_provider_enabled: optionalFlag }).nullish(),
});

/** `domain_webhooks.go` Webhook: `deviceId` is a *string without omitempty (null when unset). */
export const goWebhook = z.object({
  id: goString.min(1),
  deviceId: goString.nullish(),
  url: goString.min(1),
  event: goString.min(1),
});

/** `dto_auth.go` TokenResponse: snake_case names. */
export const goTokenResponse = z.object({
  id: goString.min(1),
  token_type: goString.min(1),
  access_token: goString.min(1),
  refresh_token: goString.optional(),
  expires_at: rfc3339,
});
