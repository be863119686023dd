import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ClientRefusal,
  dateText,
  decodeAs,
  queryString,
  seedTraffic,
  type Traffic,
} from '../support/clientWire.js';
import {
  type ApiResponse,
  type GatewayUnderTest,
  startGatewayUnderTest,
} from '../support/gatewayUnderTest.js';

/**
 * The PHP client (android-sms-gateway/client-php), every public method of `src/Client.php` (20,
 * plus the deprecated Send and GetState, which call SendMessage and GetMessageState), each
 * request as the method builds it: base URL + path, `json_encode($payload->ToObject())`, the
 * User-Agent and Authorization headers. Answers go through `sendRequest` and the Domain classes'
 * `FromObject` (typed constructor parameters: a missing or mistyped required property is a
 * TypeError). The base URL is the client's default path, `…/3rdparty/v1`.
 */
const base = '/3rdparty/v1';
const phpHeaders = { 'User-Agent': 'android-sms-gateway/2.0 (client; php 8.3.0)', Accept: '*/*' };

/**
 * `Client::sendRequest`: status ≥ 400 throws HttpException, otherwise the body goes through
 * `json_decode`, which gives null for an empty or broken body. Callers then demand
 * `is_object` (a JSON object) or `is_array` (a JSON array); void calls take anything.
 */
type PhpResult = 'object' | 'array' | 'void';

async function phpCall(
  gateway: GatewayUnderTest,
  method: string,
  path: string,
  result: PhpResult,
  json?: unknown,
): Promise<{ response: ApiResponse; value: unknown }> {
  const response = await gateway.request(method, `${base}${path}`, { json, headers: phpHeaders });
  const what = `client-php ${method} ${path}`;
  if (response.status >= 400)
    throw new ClientRefusal(`${what}: HttpException ${response.status} ${response.text}`);
  const value = response.body ?? null;
  const decoded = Array.isArray(value)
    ? 'array'
    : value !== null && typeof value === 'object'
      ? 'object'
      : 'null';
  if (result !== 'void' && decoded !== result)
    throw new ClientRefusal(`${what}: RuntimeException('Invalid response'), json_decode gave ${decoded}`);
  return { response, value };
}

const decode = <T>(schema: z.ZodType<T>, value: unknown, call: string) =>
  decodeAs(schema, value, `client-php ${call}`);

/** `src/Enums/ProcessState.php` FromValue throws on anything else. */
const processState = z.enum([
  'Pending',
  'Cancelling',
  'Cancelled',
  'Processed',
  'Sent',
  'Delivered',
  'Failed',
]);

/** `src/Domain/MessageState.php` and `RecipientState.php` FromObject. */
const messageState = z.object({
  id: z.string(),
  state: processState,
  recipients: z.array(
    z.object({ phoneNumber: z.string(), state: processState, error: z.string().nullish() }),
  ),
  isHashed: z.boolean().optional(),
  isEncrypted: z.boolean().optional(),
  textMessage: z.object({ text: z.string() }).optional(),
  dataMessage: z.object({ data: z.string(), port: z.number().int().min(0).max(65_535) }).optional(),
});

/** `src/Domain/Device.php` FromObject: id, name, createdAt and updatedAt required strings. */
const device = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullish(),
  lastSeen: z.string().nullish(),
});

/** `src/Domain/IncomingMessage.php` and `IncomingMessageAttachment.php` FromObject. */
const incomingMessage = z.object({
  id: z.string(),
  type: z.string(),
  sender: z.string(),
  contentPreview: z.string(),
  createdAt: z.string(),
  recipient: z.string().nullish(),
  simNumber: z.number().int().nullish(),
  attachments: z
    .array(
      z.object({
        partId: z.number().int(),
        name: z.string(),
        size: z.number().int(),
        contentType: z.string(),
      }),
    )
    .nullish(),
});

/** `src/Domain/LogEntry.php` FromObject: `?object $context`, so a context must be a JSON object. */
const logEntry = z.object({
  id: z.number().int(),
  message: z.string(),
  module: z.string(),
  priority: z.string(),
  createdAt: z.string(),
  context: z.record(z.string(), z.unknown()).nullish(),
});

/** `src/Domain/Settings.php` FromObject: each group a `?object` (a JSON array there is a TypeError). */
const group = z.record(z.string(), z.unknown()).nullish();
const settings = z.object({
  encryption: group,
  gateway: group,
  logs: group,
  messages: group,
  ping: group,
  webhooks: group,
});

/** `src/Domain/Webhook.php` FromObject with `src/Enums/WebhookEvent.php`. */
const webhook = z.object({
  id: z.string().nullish(),
  event: z.enum([
    'sms:received',
    'sms:sent',
    'sms:delivered',
    'sms:failed',
    'sms:cancelled',
    'system:ping',
    'app:started',
    'mms:received',
    'mms:downloaded',
    'sms:batch:received',
    'sms:batch:data-received',
    'mms:batch:received',
    'mms:batch:downloaded',
  ]),
  url: z.string(),
  deviceId: z.string().nullish(),
});

/** `src/Domain/TokenResponse.php` FromObject: snake_case names (defaults to '' when missing). */
const tokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.literal('Bearer'),
  id: z.string().min(1),
  expires_at: z.string().min(1),
});

/** `src/Domain/Message.php` ToObject: the text goes in the deprecated `message`; id and simNumber null when unset. */
function phpMessage(text: string, phone: string, extra: Record<string, unknown> = {}) {
  return {
    id: null,
    message: text,
    simNumber: null,
    withDeliveryReport: true,
    isEncrypted: false,
    phoneNumbers: [phone],
    ...extra,
  };
}

describe('the PHP client', () => {
  let gateway: GatewayUnderTest;
  let traffic: Traffic;
  const call = (method: string, path: string, result: PhpResult, json?: unknown) =>
    phpCall(gateway, method, path, result, json);

  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
    traffic = await seedTraffic(gateway, 'php');
  });
  afterAll(async () => {
    await gateway.stop();
  });

  it.each<[string, (traffic: Traffic) => string, PhpResult, z.ZodType]>([
    ['GetMessageState: GET /messages/{id}', (t: Traffic) => `/messages/${t.sentId}`, 'object', messageState],
    ['ListDevices: GET /devices', () => '/devices', 'array', z.array(device).min(1)],
    ['HealthCheck: GET /health', () => '/health', 'object', z.object({ status: z.string() })],
    ['GetSettings: GET /settings', () => '/settings', 'object', settings],
    [
      'ListMessages: GET /messages?from&to&state&deviceId&limit&offset&includeContent&sort',
      (t: Traffic) =>
        `/messages${queryString({
          from: dateText.phpAtom(t.since),
          to: dateText.phpAtom(t.until),
          state: 'Delivered',
          deviceId: t.deviceId,
          limit: 10,
          offset: 0,
          includeContent: 'true',
          sort: '-created_at',
        })}`,
      'array',
      z.array(messageState.required({ textMessage: true })).min(1),
    ],
    [
      'GetLogs: GET /logs?from&to',
      (t: Traffic) =>
        `/logs${queryString({ from: dateText.phpAtom(t.since), to: dateText.phpAtom(t.until) })}`,
      'array',
      z.array(logEntry).min(1),
    ],
    [
      'ListInboxMessages: GET /inbox?type&from&to&deviceId&includeAttachments&limit&offset',
      (t: Traffic) =>
        `/inbox${queryString({
          type: 'SMS',
          from: dateText.phpAtom(t.since),
          to: dateText.phpAtom(t.until),
          deviceId: t.deviceId,
          includeAttachments: 'true',
          limit: 10,
          offset: 0,
        })}`,
      'array',
      z.array(incomingMessage).min(1),
    ],
  ])('%s', async (method, path, result, decoder) => {
    const { value } = await call('GET', path(traffic), result);
    decode(decoder, value, method);
  });

  /** ListMessages `sort`: `created_at` oldest first, `-created_at` newest first. */
  it('ListMessages honours sort=created_at and sort=-created_at', async () => {
    for (const id of ['php-order-1', 'php-order-2']) {
      await call('POST', '/messages', 'object', { ...phpMessage('order', '+15550104100'), id });
      await gateway.clock.advance(1_000);
    }
    const ids = async (sort: string) =>
      decode(
        z.array(messageState),
        (await call('GET', `/messages?sort=${sort}&limit=100`, 'array')).value,
        'ListMessages',
      )
        .map((message) => message.id)
        .filter((id) => id.startsWith('php-order-'));
    expect(await ids('created_at')).toEqual(['php-order-1', 'php-order-2']);
    expect(await ids('-created_at')).toEqual(['php-order-2', 'php-order-1']);
  });

  /** SendMessage (and the deprecated Send): POST /messages[?skipPhoneValidation=true] with Message ToObject. */
  it.each([
    ['SendMessage', '/messages', phpMessage('hello from PHP', '+15550104000')],
    [
      'SendMessage with skipPhoneValidation, priority, ttl',
      `/messages${queryString({ skipPhoneValidation: 'true' })}`,
      phpMessage('php options', '+15550104001', {
        id: 'php-options',
        simNumber: 1,
        priority: 100,
        ttl: 3600,
      }),
    ],
    [
      'MessageBuilder with validUntil',
      '/messages',
      phpMessage('php valid until', '+15550104002', { validUntil: dateText.phpAtom(Date.UTC(2026, 0, 2)) }),
    ],
  ])('%s', async (method, path, message) => {
    const { response, value } = await call('POST', path, 'object', message);
    expect(response.status).toBe(202);
    decode(messageState, value, method);
  });

  /** CancelMessage: DELETE /messages/{rawurlencode(id)} on a message still pending. */
  it('CancelMessage', async () => {
    // Paused, so that no modem takes it before the cancel: only a Pending message can be cancelled.
    await gateway.request('POST', '/gateway/v1/sending', { json: { paused: true } });
    await call('POST', '/messages', 'object', {
      ...phpMessage('to cancel', '+15550104003'),
      id: 'php cancel',
    });
    await call('DELETE', `/messages/${encodeURIComponent('php cancel')}`, 'void');
    const { value } = await call('GET', `/messages/${encodeURIComponent('php cancel')}`, 'object');
    await gateway.request('POST', '/gateway/v1/sending', { json: { paused: false } });
    expect(decode(messageState, value, 'GetMessageState').state).toBe('Cancelled');
  });

  /** RequestInboxExport (deprecated) demands an object back; RefreshInbox is void. */
  it('RequestInboxExport: POST /inbox/export with MessagesExportRequest', async () => {
    const body = {
      deviceId: traffic.deviceId,
      since: dateText.phpAtom(traffic.since),
      until: dateText.phpAtom(traffic.until),
    };
    await call('POST', '/inbox/export', 'object', body);
  });

  it('RefreshInbox: POST /inbox/refresh with InboxRefreshRequest ToObject', async () => {
    const { response } = await call('POST', '/inbox/refresh', 'void', {
      since: dateText.phpAtom(traffic.since),
      until: dateText.phpAtom(traffic.until),
      deviceId: traffic.deviceId,
      messageTypes: ['SMS'],
      webhookDelivery: 'Individual',
    });
    expect(response.status).toBeLessThan(300);
  });

  /** ReplaceSettings (PUT) and PatchSettings (PATCH) send Settings ToObject and decode Settings. */
  it.each(['PUT', 'PATCH'])('%s /settings', async (verb) => {
    const written = {
      messages: { limit_period: 'PerMinute', limit_value: 5 },
      webhooks: { retry_count: 4, internet_required: false },
      logs: { lifetime_days: 3 },
      ping: { interval_seconds: 120 },
    };
    const { value } = await call(verb, '/settings', 'object', written);
    const answer = decode(settings, value, verb === 'PUT' ? 'ReplaceSettings' : 'PatchSettings');
    expect(answer.messages).toMatchObject(written.messages);
    expect(answer.ping).toEqual(written.ping);
  });

  /** RegisterWebhook (Webhook ToObject omits id and deviceId when null), ListWebhooks, DeleteWebhook. */
  it('RegisterWebhook, ListWebhooks and DeleteWebhook', async () => {
    const generated = await call('POST', '/webhooks', 'object', {
      event: 'sms:received',
      url: 'https://receiver.example/php',
    });
    const hook = decode(webhook, generated.value, 'RegisterWebhook');
    const named = await call('POST', '/webhooks', 'object', {
      event: 'sms:batch:received',
      url: 'https://receiver.example/php',
      id: 'php-hook',
      deviceId: traffic.deviceId,
    });
    expect(decode(webhook, named.value, 'RegisterWebhook').deviceId).toBe(traffic.deviceId);
    const listed = decode(z.array(webhook), (await call('GET', '/webhooks', 'array')).value, 'ListWebhooks');
    expect(listed.map((item) => item.id)).toEqual(expect.arrayContaining([hook.id, 'php-hook']));
    await call('DELETE', '/webhooks/php-hook', 'void');
  });

  /** GenerateToken posts TokenRequest toObject `{scopes, ttl?}`; RevokeToken DELETE /auth/token/{jti}. */
  it('GenerateToken and RevokeToken', async () => {
    const { value } = await call('POST', '/auth/token', 'object', { scopes: ['messages:send'], ttl: 60 });
    const token = decode(tokenResponse, value, 'GenerateToken');
    await call('DELETE', `/auth/token/${token.id}`, 'void');
    const revoked = await gateway.request('POST', `${base}/messages`, {
      json: phpMessage('x', '+15550104004'),
      authorization: `Bearer ${token.access_token}`,
    });
    expect(revoked.status).toBe(401);
  });

  /**
   * DownloadAttachment: GET /inbox/{id}/attachments/{partId} returns the raw body. The modems
   * receive SMS only, so no inbox message has attachments: the answer is 404, which the client
   * raises as HttpException, as upstream does for an SMS.
   */
  it('DownloadAttachment of an SMS is 404 with a JSON message', async () => {
    await expect(call('GET', `/inbox/${traffic.incomingId}/attachments/1`, 'void')).rejects.toThrow(
      /HttpException 404 \{"message":/,
    );
  });

  /** Last: RemoveDevice sends DELETE /devices/{id}. */
  it('RemoveDevice', async () => {
    const { response } = await call('DELETE', `/devices/${traffic.deviceId}`, 'void');
    expect(response.status).toBeLessThan(300);
  });
});
