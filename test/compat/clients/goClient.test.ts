import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dateText, queryString, seedTraffic, type Traffic } from '../support/clientWire.js';
import { type GatewayUnderTest, startGatewayUnderTest } from '../support/gatewayUnderTest.js';
import {
  type GoRequest,
  goCall,
  goDecode,
  goDevice,
  goDeviceSettings,
  goHealthResponse,
  goIncomingMessage,
  goLogEntry,
  goMessageState,
  goTokenResponse,
  goWebhook,
} from '../support/goClient.js';

/**
 * The Go client (android-sms-gateway/client-go), every public method of `smsgateway/client.go`
 * (19), each request as that method builds it and each answer through `rest/client.go` `do` and
 * encoding/json (`test/compat/support/goClient.ts`). The base URL is the path of the client's
 * default, `…/3rdparty/v1` (`smsgateway/client.go` BaseURL).
 */
const base = '/3rdparty/v1';

interface ReadCall {
  method: string;
  request(traffic: Traffic): GoRequest;
  decoder: z.ZodType;
}

/** Calls that only read: each decodes into the type the method returns. */
const reads: ReadCall[] = [
  {
    method: 'GetState: GET /messages/{url.PathEscape(id)} → MessageState',
    request: (traffic) => ({ method: 'GET', path: `/messages/${encodeURIComponent(traffic.sentId)}` }),
    decoder: goMessageState,
  },
  {
    method: 'ListDevices: GET /devices → []Device',
    request: () => ({ method: 'GET', path: '/devices' }),
    decoder: z.array(goDevice).min(1),
  },
  {
    method: 'CheckHealth: GET /health → HealthResponse',
    request: () => ({ method: 'GET', path: '/health' }),
    decoder: goHealthResponse,
  },
  {
    // ListMessagesOptions.ToURLValues (requests_3rdparty.go), keys sorted by url.Values.Encode.
    method: 'ListMessages: GET /messages?deviceId&from&includeContent&limit&offset&state&to → []MessageState',
    request: (traffic) => ({
      method: 'GET',
      path: `/messages${queryString(
        {
          from: dateText.goRfc3339(traffic.since),
          to: dateText.goRfc3339(traffic.until),
          state: 'Delivered',
          deviceId: traffic.deviceId,
          limit: 10,
          offset: 0,
          includeContent: true,
        },
        { sorted: true },
      )}`,
    }),
    decoder: z.array(goMessageState.required({ textMessage: true })).min(1),
  },
  {
    method: 'ListMessages with zero options: GET /messages? → []MessageState',
    request: () => ({ method: 'GET', path: '/messages?' }),
    decoder: z.array(goMessageState).min(1),
  },
  {
    // ListInboxOptions.ToURLValues (requests_3rdparty.go).
    method: 'ListInboxMessages: GET /inbox?deviceId&from&limit&offset&to&type → []IncomingMessage',
    request: (traffic) => ({
      method: 'GET',
      path: `/inbox${queryString(
        {
          type: 'SMS',
          limit: 10,
          offset: 0,
          from: dateText.goRfc3339(traffic.since),
          to: dateText.goRfc3339(traffic.until),
          deviceId: traffic.deviceId,
        },
        { sorted: true },
      )}`,
    }),
    decoder: z.array(goIncomingMessage).min(1),
  },
  {
    // GetLogs formats both bounds with time.RFC3339.
    method: 'GetLogs: GET /logs?from&to → []LogEntry',
    request: (traffic) => ({
      method: 'GET',
      path: `/logs${queryString(
        { from: dateText.goRfc3339(traffic.since), to: dateText.goRfc3339(traffic.until) },
        { sorted: true },
      )}`,
    }),
    decoder: z.array(goLogEntry).min(1),
  },
  {
    method: 'GetSettings: GET /settings → DeviceSettings',
    request: () => ({ method: 'GET', path: '/settings' }),
    decoder: goDeviceSettings,
  },
];

describe('the Go client', () => {
  let gateway: GatewayUnderTest;
  let traffic: Traffic;
  const call = (request: GoRequest, decodesAnswer: boolean) =>
    goCall(gateway, { ...request, path: `${base}${request.path}` }, decodesAnswer);

  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
    traffic = await seedTraffic(gateway, 'go');
  });
  afterAll(async () => {
    await gateway.stop();
  });

  it.each(reads)('$method', async ({ method, request, decoder }) => {
    const { value } = await call(request(traffic), true);
    goDecode(decoder, value, method);
  });

  it('ListMessages and ListInboxMessages: X-Total-Count parses with strconv.Atoi', async () => {
    for (const path of ['/messages?limit=1', '/inbox?limit=1']) {
      const { response } = await call({ method: 'GET', path }, true);
      expect(response.headers.get('x-total-count') ?? '', path).toMatch(/^\d+$/);
    }
  });

  /** Send: POST /messages?{SendOptions} with Message (omitempty drops zero fields). */
  it('Send: a text message with every option, and a data message with none', async () => {
    const text = await call(
      {
        method: 'POST',
        path: `/messages${queryString({ skipPhoneValidation: true, deviceActiveWithin: 12 }, { sorted: true })}`,
        json: {
          id: 'go-text',
          deviceId: traffic.deviceId,
          textMessage: { text: 'hello from Go' },
          phoneNumbers: ['+15550101010'],
          simNumber: 1,
          withDeliveryReport: true,
          priority: 100,
          ttl: 3600,
          scheduleAt: dateText.goJson(gateway.clock.now() + 60_000),
        },
      },
      true,
    );
    expect(text.response.status).toBe(202);
    expect(goDecode(goMessageState, text.value, 'Send').id).toBe('go-text');

    // With no options the path is "/messages?" (an empty url.Values still adds the "?").
    const data = await call(
      {
        method: 'POST',
        path: '/messages?',
        json: { dataMessage: { data: 'AAEC', port: 53739 }, phoneNumbers: ['+15550101011'] },
      },
      true,
    );
    // The state as GET /messages/{id} shows it: Processed when a free modem took it at once.
    expect(['Pending', 'Processed']).toContain(goDecode(goMessageState, data.value, 'Send').state);
  });

  it('Send: validUntil as json.Marshal writes a time.Time with a fraction', async () => {
    const { value } = await call(
      {
        method: 'POST',
        path: '/messages?',
        json: {
          textMessage: { text: 'valid until' },
          phoneNumbers: ['+15550101012'],
          validUntil: dateText.goJson(gateway.clock.now() + 3_600_123),
        },
      },
      true,
    );
    goDecode(goMessageState, value, 'Send');
  });

  /** UpdateSettings (PATCH) and ReplaceSettings (PUT) send DeviceSettings and decode the answer. */
  it.each([
    ['UpdateSettings', 'PATCH'],
    ['ReplaceSettings', 'PUT'],
  ] as const)('%s: %s /settings → DeviceSettings', async (method, verb) => {
    const settings = {
      messages: {
        send_interval_min: 5,
        send_interval_max: 10,
        limit_period: 'PerHour',
        limit_value: 50,
        sim_selection_mode: 'RoundRobin',
        processing_order: 'FIFO',
      },
      webhooks: { internet_required: false, retry_count: 3 },
      logs: { lifetime_days: 7 },
      gateway: { notification_channel: 'AUTO' },
      receiver: { content_provider_enabled: false },
    };
    const { value } = await call({ method: verb, path: '/settings', json: settings }, true);
    const answer = goDecode(goDeviceSettings, value, method);
    expect(answer.messages).toMatchObject(settings.messages);
    expect(answer.webhooks).toMatchObject(settings.webhooks);
  });

  /** RefreshInbox: InboxRefreshRequest (requests_inbox.go); ExportInbox: MessagesExportRequest. */
  it.each([
    [
      'RefreshInbox: POST /inbox/refresh',
      '/inbox/refresh',
      (t: Traffic) => ({
        deviceId: t.deviceId,
        since: dateText.goJson(t.since),
        until: dateText.goJson(t.until),
        messageTypes: ['SMS'],
        triggerWebhooks: true,
      }),
    ],
    [
      'ExportInbox (deprecated): POST /inbox/export',
      '/inbox/export',
      (t: Traffic) => ({
        deviceId: t.deviceId,
        since: dateText.goJson(t.since),
        until: dateText.goJson(t.until),
      }),
    ],
  ])('%s succeeds (the method passes no response value)', async (_method, path, body) => {
    const { response } = await call({ method: 'POST', path, json: body(traffic) }, false);
    expect(response.status).toBeLessThan(300);
  });

  /**
   * RegisterWebhook posts Webhook with `deviceId` null when unset (no omitempty), ListWebhooks
   * decodes []Webhook, DeleteWebhook sends DELETE /webhooks/{url.PathEscape(id)}.
   */
  it('RegisterWebhook, ListWebhooks and DeleteWebhook', async () => {
    const registered = await call(
      {
        method: 'POST',
        path: '/webhooks',
        json: { id: 'go hook', deviceId: null, url: 'https://receiver.example/go', event: 'sms:received' },
      },
      true,
    );
    expect(goDecode(goWebhook, registered.value, 'RegisterWebhook')).toMatchObject({ id: 'go hook' });
    const forDevice = await call(
      {
        method: 'POST',
        path: '/webhooks',
        json: { deviceId: traffic.deviceId, url: 'https://receiver.example/go', event: 'sms:sent' },
      },
      true,
    );
    expect(goDecode(goWebhook, forDevice.value, 'RegisterWebhook').deviceId).toBe(traffic.deviceId);

    const listed = await call({ method: 'GET', path: '/webhooks' }, true);
    const ids = goDecode(z.array(goWebhook), listed.value, 'ListWebhooks').map((webhook) => webhook.id);
    expect(ids).toContain('go hook');

    await call({ method: 'DELETE', path: `/webhooks/${encodeURIComponent('go hook')}` }, false);
    const after = await call({ method: 'GET', path: '/webhooks' }, true);
    expect(
      goDecode(z.array(goWebhook), after.value, 'ListWebhooks').map((webhook) => webhook.id),
    ).not.toContain('go hook');
  });

  /**
   * GenerateToken posts `dto_auth.go` TokenRequest `{ttl (omitempty), scopes}`; RefreshToken
   * posts no body with `Bearer <refresh token>`; RevokeToken sends DELETE /auth/token/{jti}.
   */
  it('GenerateToken, RefreshToken and RevokeToken', async () => {
    const issued = await call(
      { method: 'POST', path: '/auth/token', json: { ttl: 3600, scopes: ['messages:list'] } },
      true,
    );
    const token = goDecode(goTokenResponse, issued.value, 'GenerateToken');
    expect(token.token_type).toBe('Bearer');

    const refreshed = await call(
      { method: 'POST', path: '/auth/token/refresh', authorization: `Bearer ${token.refresh_token}` },
      true,
    );
    const next = goDecode(goTokenResponse, refreshed.value, 'RefreshToken');
    expect(next.access_token).not.toBe(token.access_token);

    // A client built with Config.Token sends the access token as Bearer.
    const asBearer = await gateway.request('GET', `${base}/messages`, {
      authorization: `Bearer ${next.access_token}`,
    });
    expect(asBearer.status).toBe(200);
    await call({ method: 'DELETE', path: `/auth/token/${encodeURIComponent(next.id)}` }, false);
    const revoked = await gateway.request('GET', `${base}/messages`, {
      authorization: `Bearer ${next.access_token}`,
    });
    expect(revoked.status).toBe(401);
  });

  /** Last: DeleteDevice sends DELETE /devices/{url.PathEscape(id)} and ignores the body. */
  it('DeleteDevice', async () => {
    const { response } = await call(
      { method: 'DELETE', path: `/devices/${encodeURIComponent(traffic.deviceId)}` },
      false,
    );
    expect(response.status).toBeLessThan(300);
  });
});
