import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';
import {
  ClientRefusal,
  dateText,
  decodeAs,
  jsonOf,
  queryString,
  rfc3339,
  seedTraffic,
  type Traffic,
} from '../support/clientWire.js';
import {
  type ApiResponse,
  type GatewayUnderTest,
  startGatewayUnderTest,
} from '../support/gatewayUnderTest.js';

/**
 * The Rust client (android-sms-gateway/client-rs), every public method of `src/client.rs`
 * (21), each request as the method builds it and each answer through `src/http.rs` and serde:
 * a field without `#[serde(default)]` or `Option` is required (and `default` does not admit
 * null), `DateTime<Utc>` needs an RFC 3339 string, enums without `#[serde(other)]` refuse
 * unknown values, integers must fit their type. The base URL is `…/3rdparty/v1`.
 */
const base = '/3rdparty/v1';
const rustHeaders = { 'User-Agent': 'android-sms-gateway/1.0.0 (client; rust)', Accept: '*/*' };

/**
 * `src/http.rs` `execute_with_auth`: a status outside 2xx is an error (BadRequest, NotFound, …);
 * `request_json` then parses the body as the return type, `request_empty` ignores it.
 */
async function rustCall(
  gateway: GatewayUnderTest,
  method: string,
  path: string,
  options: { json?: unknown; authorization?: string; decodesAnswer: boolean },
): Promise<{ response: ApiResponse; value: unknown }> {
  const { decodesAnswer, ...request } = options;
  const response = await gateway.request(method, `${base}${path}`, { ...request, headers: rustHeaders });
  const what = `client-rs ${method} ${path}`;
  if (response.status < 200 || response.status > 299)
    throw new ClientRefusal(`${what}: ${response.status} ${response.text}`);
  return { response, value: decodesAnswer ? jsonOf(response, what) : undefined };
}

const decode = <T>(schema: z.ZodType<T>, value: unknown, call: string) =>
  decodeAs(schema, value, `client-rs ${call}`);

const i32 = z
  .number()
  .int()
  .min(-(2 ** 31))
  .max(2 ** 31 - 1);

/** `src/types/message.rs` ProcessingState: no `#[serde(other)]`. */
const processingState = z.enum([
  'Pending',
  'Cancelling',
  'Cancelled',
  'Processed',
  'Sent',
  'Delivered',
  'Failed',
]);

/** `src/types/message.rs` MessageState: `device_id: String` has no default, so it is required. */
const messageState = z.object({
  id: z.string(),
  deviceId: z.string().min(1),
  state: processingState,
  isHashed: z.boolean().optional(),
  isEncrypted: z.boolean().optional(),
  recipients: z
    .array(z.object({ phoneNumber: z.string(), state: processingState, error: z.string().nullish() }))
    .optional(),
  states: z.partialRecord(processingState, rfc3339).optional(),
  textMessage: z.object({ text: z.string() }).nullish(),
  dataMessage: z.object({ data: z.string(), port: z.number().int().min(0).max(65_535) }).nullish(),
});

/** `src/types/device.rs` Device and SimCard. */
const device = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: rfc3339,
  updatedAt: rfc3339,
  deletedAt: rfc3339.nullish(),
  lastSeen: rfc3339,
  simCards: z
    .array(
      z.object({
        slotIndex: i32,
        simNumber: i32,
        phoneNumber: z.string().nullish(),
        carrierName: z.string().nullish(),
        iccid: z.string().nullish(),
      }),
    )
    .nullish(),
});

/** `src/types/health.rs` HealthResponse: `observed_value: i32` is required in each check. */
const healthResponse = z.object({
  status: z.string(),
  version: z.string().nullish(),
  releaseId: i32.nullish(),
  checks: z
    .record(
      z.string(),
      z.object({
        description: z.string().nullish(),
        observedUnit: z.string().nullish(),
        observedValue: i32,
        status: z.string(),
      }),
    )
    .nullish(),
});

/** `src/types/inbox.rs` IncomingMessage: `sim_number: Option<u8>`, attachments' name and size required. */
const incomingMessage = z.object({
  id: z.string(),
  type: z.string(),
  sender: z.string(),
  recipient: z.string().nullish(),
  simNumber: z.number().int().min(0).max(255).nullish(),
  contentPreview: z.string(),
  createdAt: rfc3339,
  attachments: z
    .array(z.object({ partId: i32, name: z.string(), size: z.number().int(), contentType: z.string() }))
    .nullish(),
});

/** `src/types/log.rs` LogEntry: `context` has `#[serde(default)]`, which does not admit null. */
const logEntry = z.object({
  id: z.number().int().min(0),
  priority: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']),
  module: z.string(),
  message: z.string(),
  context: z.record(z.string(), z.unknown()).optional(),
  createdAt: rfc3339,
});

/** `src/types/settings.rs` DeviceSettings: every group and key optional, enums strict. */
const deviceSettings = z.object({
  encryption: z.object({ passphrase: z.string().nullish() }).nullish(),
  messages: z
    .object({
      send_interval_min: i32.nullish(),
      send_interval_max: i32.nullish(),
      limit_period: z.enum(['Disabled', 'PerMinute', 'Per30Minutes', 'PerHour', 'PerDay']).nullish(),
      limit_value: i32.nullish(),
      sim_selection_mode: z.enum(['OSDefault', 'RoundRobin', 'Random']).nullish(),
      log_lifetime_days: i32.nullish(),
      processing_order: z.enum(['LIFO', 'FIFO']).nullish(),
      work_hours_enabled: z.boolean().nullish(),
      work_hours_start: z.string().nullish(),
      work_hours_end: z.string().nullish(),
    })
    .nullish(),
  ping: z.object({ interval_seconds: i32.nullish() }).nullish(),
  logs: z.object({ lifetime_days: i32.nullish() }).nullish(),
  webhooks: z
    .object({
      internet_required: z.boolean().nullish(),
      retry_count: i32.nullish(),
      signing_key: z.string().nullish(),
    })
    .nullish(),
  gateway: z
    .object({
      cloud_url: z.string().nullish(),
      private_token: z.string().nullish(),
      notification_channel: z.string().nullish(),
    })
    .nullish(),
  receiver: z.object({ content_provider_enabled: z.boolean().nullish() }).nullish(),
});

/** `src/types/webhook.rs` Webhook: no `rename_all`, so the device filter is `device_id`. */
const webhook = z.object({
  id: z.string().nullish(),
  device_id: z.string().nullish(),
  url: z.string(),
  event: z.string(),
});

/** `src/types/auth.rs` TokenResponse: camelCase; refreshToken optional, the rest required. */
const tokenResponse = z.object({
  id: z.string(),
  tokenType: z.string(),
  accessToken: z.string(),
  refreshToken: z.string().optional(),
  expiresAt: rfc3339,
});

/** `src/types/webhook.rs` SmsReceivedPayload: SmsEventPayload flattened, then message, receivedAt. */
const smsReceivedPayload = z.object({
  messageId: z.string(),
  phoneNumber: z.string(),
  sender: z.string(),
  recipient: z.string().nullish(),
  simNumber: z.number().int().min(0).max(255).nullish(),
  message: z.string(),
  receivedAt: rfc3339,
});

/** `src/types/message.rs` Message as serde writes it: `isEncrypted` and `priority` always present. */
function rustMessage(fields: Record<string, unknown>) {
  return { isEncrypted: false, priority: 0, ...fields };
}

describe('the Rust client', () => {
  let gateway: GatewayUnderTest;
  let receiver: WebhookReceiver;
  let traffic: Traffic;
  const call = (
    method: string,
    path: string,
    options: { json?: unknown; authorization?: string; decodesAnswer: boolean },
  ) => rustCall(gateway, method, path, options);

  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
    receiver = await startReceiver();
    traffic = await seedTraffic(gateway, 'rs');
  });
  afterAll(async () => {
    await receiver.close();
    await gateway.stop();
  });

  it.each<[string, (traffic: Traffic) => string, z.ZodType]>([
    ['check_health: GET /health', () => '/health', healthResponse],
    [
      'get_message_state: GET /messages/{encode_path_segment(id)}',
      (t) => `/messages/${encodeURIComponent(t.sentId)}`,
      messageState,
    ],
    ['list_devices: GET /devices', () => '/devices', z.array(device).min(1)],
    ['get_settings: GET /settings', () => '/settings', deviceSettings],
    [
      // ListMessagesOptions::to_query_params, in its order; from/to with to_rfc3339.
      'list_messages: GET /messages?from&to&state&deviceId&limit&offset&includeContent&sort',
      (t) =>
        `/messages${queryString({
          from: dateText.rustRfc3339(t.since),
          to: dateText.rustRfc3339(t.until + 1),
          state: 'Delivered',
          deviceId: t.deviceId,
          limit: 100,
          offset: 0,
          includeContent: true,
          sort: 'created_at',
        })}`,
      z.array(messageState.required({ textMessage: true })).min(1),
    ],
    [
      'list_inbox_messages: GET /inbox?type&limit&offset&from&to&deviceId&includeAttachments',
      (t) =>
        `/inbox${queryString({
          type: 'SMS',
          limit: 100,
          offset: 0,
          from: dateText.rustRfc3339(t.since),
          to: dateText.rustRfc3339(t.until),
          deviceId: t.deviceId,
          includeAttachments: false,
        })}`,
      z.array(incomingMessage).min(1),
    ],
    [
      'get_logs: GET /logs?from={encode_path_segment(to_rfc3339)}&to=…',
      (t) =>
        `/logs${queryString({ from: dateText.rustRfc3339(t.since), to: dateText.rustRfc3339(t.until) })}`,
      z.array(logEntry).min(1),
    ],
  ])('%s', async (method, path, decoder) => {
    const { value } = await call('GET', path(traffic), { decodesAnswer: true });
    decode(decoder, value, method);
  });

  it('list_messages and list_inbox_messages read X-Total-Count as a u64', async () => {
    for (const path of ['/messages', '/inbox']) {
      const { response } = await call('GET', path, { decodesAnswer: true });
      expect(response.headers.get('x-total-count') ?? '', path).toMatch(/^\d+$/);
    }
  });

  /** `send` posts Message to /messages?{SendOptions}; `cancel_message` DELETE /messages/{id}. */
  it('send with every option, get_message_state, cancel_message, each answer with a deviceId', async () => {
    const sent = await call(
      'POST',
      `/messages${queryString({ skipPhoneValidation: true, deviceActiveWithin: 24 })}`,
      {
        decodesAnswer: true,
        json: rustMessage({
          id: 'rs-pending',
          deviceId: traffic.deviceId,
          textMessage: { text: 'hi' },
          phoneNumbers: ['+15551230000'],
          simNumber: 1,
          withDeliveryReport: false,
          priority: 5,
          validUntil: dateText.rustSerde(gateway.clock.now() + 3_600_250),
          scheduleAt: dateText.rustSerde(gateway.clock.now() + 60_000),
        }),
      },
    );
    expect(sent.response.status).toBe(202);
    const accepted = decode(messageState, sent.value, 'send');
    expect(accepted.state).toBe('Pending');

    await call('DELETE', '/messages/rs-pending', { decodesAnswer: false });
    const after = decode(
      messageState,
      (await call('GET', '/messages/rs-pending', { decodesAnswer: true })).value,
      'get_message_state',
    );
    expect(after.state).toBe('Cancelled');
    expect(after.deviceId).toBe(accepted.deviceId);
  });

  it('send a data message with ttl and the deprecated message field', async () => {
    for (const json of [
      rustMessage({ dataMessage: { data: 'AAEC', port: 53739 }, phoneNumbers: ['+15551230001'], ttl: 600 }),
      rustMessage({ message: 'plain', phoneNumbers: ['+15551230002'] }),
    ]) {
      decode(messageState, (await call('POST', '/messages', { json, decodesAnswer: true })).value, 'send');
    }
  });

  /** `replace_settings` (PUT) and `update_settings` (PATCH) send DeviceSettings and decode it back. */
  it.each(['PUT', 'PATCH'])('%s /settings with work hours', async (verb) => {
    const settings = {
      messages: {
        send_interval_min: 1,
        send_interval_max: 2,
        limit_period: 'PerHour',
        limit_value: 10,
        sim_selection_mode: 'Random',
        processing_order: 'LIFO',
        work_hours_enabled: true,
        work_hours_start: '08:00',
        work_hours_end: '20:30',
      },
      ping: { interval_seconds: 60 },
      gateway: { notification_channel: 'SSE_ONLY' },
      receiver: { content_provider_enabled: true },
    };
    const { value } = await call(verb, '/settings', { json: settings, decodesAnswer: true });
    const answer = decode(deviceSettings, value, verb === 'PUT' ? 'replace_settings' : 'update_settings');
    expect(answer.messages).toMatchObject(settings.messages);
    // Back to always sending, for the calls after this one.
    await call('PATCH', '/settings', {
      json: { messages: { work_hours_enabled: false } },
      decodesAnswer: true,
    });
  });

  /**
   * `register_webhook` posts Webhook with `device_id` (no rename_all), `list_webhooks` decodes
   * Vec<Webhook>, `delete_webhook` DELETE /webhooks/{id}.
   */
  it('register_webhook for one device, list_webhooks, delete_webhook', async () => {
    const created = await call('POST', '/webhooks', {
      decodesAnswer: true,
      json: {
        id: 'rs-device',
        device_id: traffic.deviceId,
        url: 'https://example.com/rs',
        event: 'sms:cancelled',
      },
    });
    expect(created.response.body).toMatchObject({ id: 'rs-device', deviceId: traffic.deviceId });
    decode(webhook, created.value, 'register_webhook');
    const listed = decode(
      z.array(webhook),
      (await call('GET', '/webhooks', { decodesAnswer: true })).value,
      'list_webhooks',
    );
    expect(listed.map((item) => item.id)).toContain('rs-device');
    await call('DELETE', '/webhooks/rs-device', { decodesAnswer: false });
  });

  /**
   * `generate_token` posts TokenRequest (`{ttl?, scopes}`); `refresh_token` posts no body with
   * `Bearer <refresh token>`; `revoke_token` sends DELETE /auth/token/{jti}.
   */
  it('generate_token, refresh_token and revoke_token', async () => {
    const issued = await call('POST', '/auth/token', {
      json: { ttl: 600, scopes: ['messages:send'] },
      decodesAnswer: true,
    });
    const first = decode(tokenResponse, issued.value, 'generate_token');
    const refreshed = await call('POST', '/auth/token/refresh', {
      authorization: `Bearer ${first.refreshToken}`,
      decodesAnswer: true,
    });
    const second = decode(tokenResponse, refreshed.value, 'refresh_token');
    expect(second.accessToken).not.toBe(first.accessToken);
    await call('DELETE', `/auth/token/${encodeURIComponent(second.id)}`, { decodesAnswer: false });
    const afterRevoke = await gateway.request('GET', `${base}/messages`, {
      authorization: `Bearer ${second.accessToken}`,
    });
    expect(afterRevoke.status).toBe(401);
  });

  /** `export_inbox` posts MessagesExportRequest (serde dates) and ignores the answer. */
  it('export_inbox: POST /inbox/export', async () => {
    const { response } = await call('POST', '/inbox/export', {
      decodesAnswer: false,
      json: {
        deviceId: traffic.deviceId,
        since: dateText.rustSerde(traffic.since),
        until: dateText.rustSerde(traffic.until),
      },
    });
    expect(response.status).toBeLessThan(300);
  });

  /**
   * `refresh_inbox` posts InboxRefreshRequest (`triggerWebhooks` always present); with it true
   * each SMS comes as an `sms:received` webhook whose payload decodes as SmsReceivedPayload and
   * whose signature `src/webhook.rs` verify_signature accepts (HMAC-SHA256 of body + timestamp).
   */
  it('refresh_inbox with triggerWebhooks: signed sms:received webhooks the client decodes', async () => {
    const signingKey = 'rust signing key';
    expect(
      (await gateway.request('PATCH', '/settings', { json: { webhooks: { signing_key: signingKey } } }))
        .status,
    ).toBe(200);
    const hook = await gateway.request('POST', '/webhooks', {
      json: { id: 'rs-received', url: receiver.url, event: 'sms:received' },
    });
    expect(hook.status, hook.text).toBe(201);

    const { response } = await call('POST', '/inbox/refresh', {
      decodesAnswer: false,
      json: {
        deviceId: traffic.deviceId,
        since: dateText.rustSerde(traffic.since),
        until: dateText.rustSerde(gateway.clock.now() + 1_000),
        messageTypes: ['SMS'],
        triggerWebhooks: true,
      },
    });
    expect(response.status).toBeLessThan(300);
    await gateway.runUntil(() => receiver.requests.length > 0, 'the sms:received webhook');

    const [delivery] = receiver.requests;
    const body = delivery?.body ?? '';
    const envelope = z
      .object({ event: z.literal('sms:received'), payload: smsReceivedPayload })
      .parse(JSON.parse(body));
    expect(envelope.payload.message).toBe('rs inbound');
    const timestamp = String(delivery?.headers['x-timestamp']);
    const expected = createHmac('sha256', signingKey).update(body).update(timestamp).digest('hex');
    expect(delivery?.headers['x-signature']).toBe(expected);
  });

  /** `download_attachment`: the modems receive SMS only, so an SMS has no part: 404 (Error::NotFound). */
  it('download_attachment of an SMS is 404', async () => {
    await expect(
      call('GET', `/inbox/${encodeURIComponent(traffic.incomingId)}/attachments/1`, { decodesAnswer: false }),
    ).rejects.toThrow(/404/);
  });

  /** Last: `delete_device` sends DELETE /devices/{id}. */
  it('delete_device', async () => {
    const { response } = await call('DELETE', `/devices/${encodeURIComponent(traffic.deviceId)}`, {
      decodesAnswer: false,
    });
    expect(response.status).toBeLessThan(300);
  });
});
