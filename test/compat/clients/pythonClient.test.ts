import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { encryptField } from '../../../server/services/messages/e2eEncryption.js';
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
 * The Python client (android-sms-gateway/client-py), every public method of
 * `android_sms_gateway/client.py` APIClient (20; AsyncAPIClient has the same 20 with the same
 * requests), each request as the method builds it and each answer read with `domain.py`
 * from_dict, where `payload["…"]` is a required key and enums (`enums.py`) refuse unknown values.
 * The base URL is the Private server's shape, `…/api/3rdparty/v1` (constants.py DEFAULT_URL is
 * the Cloud's `…/3rdparty/v1`; `BaseClient` strips a trailing slash).
 */
const base = '/api/3rdparty/v1';
const passphrase = 'python client passphrase';

/** `BaseClient.__init__`: these three headers go with every request, GET and DELETE included. */
const pythonHeaders = {
  'Content-Type': 'application/json',
  'User-Agent': 'android-sms-gateway/1.0.0 (client; python 3.12)',
  Accept: '*/*',
};

/**
 * `http.py` RequestsHttpClient: `raise_for_status()` (≥ 400 raises), then 204 or an empty body
 * is `{}`, anything else `response.json()`; `delete` only raises for status. AsyncAPIClient's
 * `ahttp.py` uses aiohttp's `response.json()`, which refuses a body not labelled
 * application/json, so a JSON answer must carry that type for both clients to read the same.
 */
async function pythonCall(
  gateway: GatewayUnderTest,
  method: string,
  path: string,
  options: { json?: unknown; authorization?: string } = {},
): Promise<{ response: ApiResponse; value: unknown }> {
  const response = await gateway.request(method, `${base}${path}`, { ...options, headers: pythonHeaders });
  const what = `client-py ${method} ${path}`;
  if (response.status >= 400) throw new ClientRefusal(`${what}: ${response.status} ${response.text}`);
  if (method === 'DELETE' || response.status === 204 || response.text === '') return { response, value: {} };
  if (!response.headers.get('content-type')?.startsWith('application/json'))
    throw new ClientRefusal(`${what}: aiohttp refuses content type ${response.headers.get('content-type')}`);
  return { response, value: jsonOf(response, what) };
}

const decode = <T>(schema: z.ZodType<T>, value: unknown, call: string) =>
  decodeAs(schema, value, `client-py ${call}`);

/** `enums.py` ProcessState: no Cancelled or Cancelling (the client has no cancel call). */
const processState = z.enum(['Pending', 'Processed', 'Sent', 'Delivered', 'Failed']);

/** `domain.py` MessageState.from_dict: id, state, recipients[].phoneNumber/state required. */
const messageState = z.object({
  id: z.string(),
  deviceId: z.string().optional(),
  state: processState,
  recipients: z.array(
    z.object({ phoneNumber: z.string(), state: processState, error: z.string().nullish() }),
  ),
  isHashed: z.boolean().optional(),
  isEncrypted: z.boolean().optional(),
  states: z.record(z.string(), z.string()).optional(),
});

/** `domain.py` Webhook.from_dict: url and event (`enums.py` WebhookEvent) required. */
const webhook = z.object({
  id: z.string().nullish(),
  url: z.string(),
  event: z.enum([
    'sms:received',
    'sms:data-received',
    'sms:sent',
    'sms:delivered',
    'sms:failed',
    'system:ping',
    'mms:received',
    'mms:downloaded',
    'app:started',
  ]),
  deviceId: z.string().nullish(),
});

/** `domain.py` Device.from_dict: id and name required; dates through `_parse_iso`. */
const device = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: rfc3339.nullish(),
  updatedAt: rfc3339.nullish(),
  deletedAt: rfc3339.nullish(),
  lastSeen: rfc3339.nullish(),
});

/** `domain.py` DeviceSettings.from_dict: each group's enums are strict when present. */
const deviceSettings = z.object({
  gateway: z.object({ notification_channel: z.string().nullish() }).optional(),
  encryption: z.object({ passphrase: z.string().nullish() }).optional(),
  messages: z
    .object({
      limit_period: z.enum(['Disabled', 'PerMinute', 'PerHour', 'PerDay']).nullish(),
      limit_value: z.number().int().nullish(),
      processing_order: z.enum(['LIFO', 'FIFO']).nullish(),
      send_interval_min: z.number().int().nullish(),
      send_interval_max: z.number().int().nullish(),
      sim_selection_mode: z.enum(['OSDefault', 'RoundRobin', 'Random']).nullish(),
    })
    .optional(),
  logs: z.object({ lifetime_days: z.number().int().nullish() }).optional(),
  ping: z.object({ interval_seconds: z.number().int().nullish() }).optional(),
  webhooks: z
    .object({ retry_count: z.number().int().nullish(), internet_required: z.boolean().nullish() })
    .optional(),
});

/** `domain.py` HealthResponse.from_dict and HealthCheck.from_dict: `status` required in each. */
const healthResponse = z.object({
  status: z.enum(['pass', 'warn', 'fail']),
  version: z.string().optional(),
  releaseId: z.number().int().optional(),
  checks: z.record(z.string(), z.object({ status: z.enum(['pass', 'warn', 'fail']) })).optional(),
});

/** `domain.py` LogEntry.from_dict: id, createdAt, message and priority required. */
const logEntry = z.object({
  id: z.number().int(),
  createdAt: rfc3339,
  message: z.string(),
  priority: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']),
  module: z.string().optional(),
  context: z.record(z.string(), z.unknown()).optional(),
});

/** `domain.py` TokenResponse.from_dict: camelCase; refreshToken optional, the rest required. */
const tokenResponse = z.object({
  accessToken: z.string(),
  tokenType: z.string(),
  id: z.string(),
  expiresAt: z.string(),
  refreshToken: z.string().optional(),
});

/** `update_settings`, `patch_settings` and `export_inbox` hand back the JSON as a dict. */
const anyDict = z.record(z.string(), z.unknown());

describe('the Python client', () => {
  let gateway: GatewayUnderTest;
  let traffic: Traffic;
  const call = (method: string, path: string, options?: { json?: unknown; authorization?: string }) =>
    pythonCall(gateway, method, path, options);

  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
    traffic = await seedTraffic(gateway, 'py');
  });
  afterAll(async () => {
    await gateway.stop();
  });

  it.each<[string, (traffic: Traffic) => string, z.ZodType]>([
    ['get_state: GET /messages/{id}', (t: Traffic) => `/messages/${t.sentId}`, messageState],
    ['list_devices: GET /devices', () => '/devices', z.array(device).min(1)],
    ['health_check: GET /health', () => '/health', healthResponse],
    ['liveness_check: GET /health/live', () => '/health/live', healthResponse],
    ['readiness_check: GET /health/ready', () => '/health/ready', healthResponse],
    ['startup_check: GET /health/startup', () => '/health/startup', healthResponse],
    ['get_settings: GET /settings', () => '/settings', deviceSettings],
    [
      // MessagesQueryFilter.asdict (isoformat) then QueryPagination.asdict, in that order.
      'get_messages: GET /messages?from&to&state&deviceId&limit&offset',
      (t: Traffic) =>
        `/messages${queryString({
          from: dateText.pythonIsoformat(t.since),
          to: dateText.pythonIsoformat(t.until + 123),
          state: 'Delivered',
          deviceId: t.deviceId,
          limit: 10,
          offset: 0,
        })}`,
      z.array(messageState).min(1),
    ],
    ['get_messages with no filter: GET /messages', () => '/messages', z.array(messageState).min(1)],
    [
      'get_logs: GET /logs?from&to',
      (t: Traffic) =>
        `/logs${queryString({ from: dateText.pythonIsoformat(t.since), to: dateText.pythonIsoformat(t.until) })}`,
      z.array(logEntry).min(1),
    ],
  ])('%s', async (method, path, decoder) => {
    const { value } = await call('GET', path(traffic));
    decode(decoder, value, method);
  });

  /** `send` posts `Message.asdict()`: camelCase, None dropped, withDeliveryReport and isEncrypted always. */
  it('send: POST /messages?skipPhoneValidation&deviceActiveWithin with every Message field', async () => {
    const { response, value } = await call(
      'POST',
      `/messages${queryString({ skipPhoneValidation: 'true', deviceActiveWithin: 24 })}`,
      {
        json: {
          phoneNumbers: ['+15550103000'],
          textMessage: { text: 'hello from Python' },
          priority: 100,
          simNumber: 1,
          withDeliveryReport: true,
          isEncrypted: false,
          validUntil: dateText.pythonIsoformat(gateway.clock.now() + 3_600_000),
          id: 'py-text',
          deviceId: traffic.deviceId,
        },
      },
    );
    expect(response.status).toBe(202);
    expect(decode(messageState, value, 'send').id).toBe('py-text');
  });

  it('send: a data message from DataMessage.with_bytes, with ttl', async () => {
    const { value } = await call('POST', '/messages', {
      json: {
        phoneNumbers: ['+15550103001'],
        dataMessage: { data: Buffer.from('ping').toString('base64'), port: 53739 },
        withDeliveryReport: true,
        isEncrypted: false,
        ttl: 600,
      },
    });
    decode(messageState, value, 'send');
  });

  /**
   * `BaseClient._encrypt` replaces the text or the (already Base64) data and every phone number
   * by its encryption and sets `is_encrypted`; `_decrypt` decrypts the recipients of the answer.
   * The gateway decrypts first and validates the plaintext afterwards.
   */
  describe('with an encryptor', () => {
    beforeAll(async () => {
      const set = await gateway.request('PATCH', '/settings', { json: { encryption: { passphrase } } });
      expect(set.status, set.text).toBe(200);
    });
    afterAll(async () => {
      await gateway.request('PATCH', '/settings', { json: { encryption: { passphrase: null } } });
    });

    it('sends an encrypted data message, which is decrypted and handed to the modem', async () => {
      const { value } = await call('POST', '/messages', {
        json: {
          phoneNumbers: [encryptField('+15557654321', passphrase, 1_000)],
          dataMessage: {
            data: encryptField(Buffer.from('ping').toString('base64'), passphrase, 1_000),
            port: 53739,
          },
          withDeliveryReport: true,
          isEncrypted: true,
          id: 'py-encrypted-data',
        },
      });
      expect(decode(messageState, value, 'send').isEncrypted).toBe(true);

      let state = '';
      await gateway.runUntil(async () => {
        state = decode(
          messageState,
          (await call('GET', '/messages/py-encrypted-data')).value,
          'get_state',
        ).state;
        return state !== 'Pending';
      }, 'the encrypted data message leaving the queue');
      expect(['Processed', 'Sent', 'Delivered']).toContain(state);
    });
  });

  it('a plain data message whose data is not Base64 is refused, naming the field', async () => {
    await expect(
      call('POST', '/messages', {
        json: {
          phoneNumbers: ['+15557654321'],
          dataMessage: { data: 'not base64!', port: 1 },
          withDeliveryReport: true,
          isEncrypted: false,
        },
      }),
    ).rejects.toThrow(/400.*dataMessage\.data/);
  });

  /** `export_inbox` posts MessagesExportRequest.asdict() (isoformat) to /messages/inbox/export. */
  it('export_inbox: POST /messages/inbox/export', async () => {
    const { value } = await call('POST', '/messages/inbox/export', {
      json: {
        deviceId: traffic.deviceId,
        since: dateText.pythonIsoformat(traffic.since),
        until: dateText.pythonIsoformat(traffic.until),
      },
    });
    decode(anyDict, value, 'export_inbox');
  });

  /** `update_settings` (PUT) and `patch_settings` (PATCH) post DeviceSettings.asdict(). */
  it.each(['PUT', 'PATCH'])('%s /settings with every group the client writes', async (verb) => {
    const settings = {
      gateway: { notification_channel: 'AUTO' },
      messages: {
        limit_period: 'PerDay',
        limit_value: 100,
        log_lifetime_days: 10,
        processing_order: 'FIFO',
        send_interval_max: 20,
        send_interval_min: 10,
        sim_selection_mode: 'OSDefault',
      },
      logs: { lifetime_days: 14 },
      ping: { interval_seconds: 300 },
      webhooks: { retry_count: 2, internet_required: false },
    };
    const { value } = await call(verb, '/settings', { json: settings });
    const answer = decode(
      deviceSettings,
      decode(anyDict, value, 'update_settings'),
      'DeviceSettings.from_dict',
    );
    expect(answer.messages).toMatchObject({ limit_period: 'PerDay', send_interval_min: 10 });
    expect(answer.ping).toEqual({ interval_seconds: 300 });
  });

  /** `create_webhook` posts Webhook.asdict() (`id` None sent as null), then list and delete. */
  it('create_webhook, get_webhooks and delete_webhook', async () => {
    const created = await call('POST', '/webhooks', {
      json: { id: null, url: 'https://receiver.example/py', event: 'sms:received' },
    });
    const hook = decode(webhook, created.value, 'create_webhook');
    expect(hook.id).toEqual(expect.any(String));
    const named = await call('POST', '/webhooks', {
      json: {
        id: 'py-hook',
        url: 'https://receiver.example/py',
        event: 'sms:failed',
        deviceId: traffic.deviceId,
      },
    });
    expect(decode(webhook, named.value, 'create_webhook').deviceId).toBe(traffic.deviceId);

    const listed = decode(z.array(webhook), (await call('GET', '/webhooks')).value, 'get_webhooks');
    expect(listed.map((item) => item.id)).toEqual(expect.arrayContaining([hook.id, 'py-hook']));
    await call('DELETE', '/webhooks/py-hook');
    const after = decode(z.array(webhook), (await call('GET', '/webhooks')).value, 'get_webhooks');
    expect(after.map((item) => item.id)).not.toContain('py-hook');
  });

  /**
   * `generate_token` posts TokenRequest.asdict(); `refresh_token` posts `{}` with
   * `Bearer <refresh token>`; `revoke_token` sends DELETE /auth/token/{jti}.
   */
  it('generate_token, refresh_token and revoke_token', async () => {
    const issued = await call('POST', '/auth/token', { json: { scopes: ['messages:send'], ttl: 600 } });
    const token = decode(tokenResponse, issued.value, 'generate_token');
    expect(token.tokenType).toBe('Bearer');
    const refreshed = await call('POST', '/auth/token/refresh', {
      json: {},
      authorization: `Bearer ${token.refreshToken}`,
    });
    const next = decode(tokenResponse, refreshed.value, 'refresh_token');
    await call('DELETE', `/auth/token/${next.id}`);
    const revoked = await gateway.request('GET', `${base}/messages`, {
      authorization: `Bearer ${next.accessToken}`,
    });
    expect(revoked.status).toBe(401);
  });

  /** Last: `remove_device` sends DELETE /devices/{id}. */
  it('remove_device', async () => {
    const { response } = await call('DELETE', `/devices/${traffic.deviceId}`);
    expect(response.status).toBeLessThan(300);
  });
});
