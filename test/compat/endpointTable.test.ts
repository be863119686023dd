import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiRequest,
  type ApiResponse,
  type GatewayUnderTest,
  type Mount,
  mounts,
  startGatewayUnderTest,
  type TokenPair,
  wrongBasicHeader,
} from './support/gatewayUnderTest.js';
import { requiredScope, routeName, type SpecRoute, specRoutes } from './support/specRoutes.js';

/**
 * One test per row of the spec's endpoint table and status it lists, at each of the three
 * mounts, against the whole gateway. Statuses the table lists that cannot arise here:
 * - 500 needs a broken store or a bug; a healthy gateway never answers it.
 * - 501 is upstream's answer where a Cloud server lacks a feature; every route is implemented.
 * - 400 on GET /devices, DELETE /devices/{id} and GET /messages/{id}: they take no body or query,
 *   and any path id is well-formed (an unknown one is 404).
 * - 403 on POST /auth/token/refresh: the route takes refresh tokens, which carry no scope to lack;
 *   an access token there is not the right credential at all (401).
 */
interface MountApi {
  base: Mount;
  call(method: string, path: string, request?: ApiRequest): Promise<ApiResponse>;
  bearer(scopes: readonly string[]): Promise<string>;
  issueTokens(scopes: readonly string[]): Promise<TokenPair>;
  /** A gateway allowing two pending messages, holding two, with sending paused. */
  fullQueue(method: string, path: string, request?: ApiRequest): Promise<ApiResponse>;
  gateway: GatewayUnderTest;
}

interface StatusCase {
  status: number;
  when: string;
  send(api: MountApi): Promise<ApiResponse>;
  /** Checks beyond the status and, for errors, the `{message}` body. */
  verify?(response: ApiResponse, api: MountApi): void | Promise<void>;
}

interface Row {
  route: string;
  cases: StatusCase[];
}

const text = (body: string) => ({ phoneNumbers: ['+15551234567'], textMessage: { text: body } });
/** A well-formed HS256 JWT claiming all:any, signed with a key this gateway never had. */
const forgedBearerHeader = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzY29wZXMiOlsiYWxsOmFueSJdfQ.c2lnbmF0dXJl';
let sequence = 0;
const uniqueId = (prefix: string) => `${prefix}-${++sequence}`;

function errorMessage(response: ApiResponse): string {
  return (response.body as { message: string }).message;
}

/** 400 whose `{message}` names the field first ("<field>: <what is wrong>"). */
function badInput(when: string, field: string, send: (api: MountApi) => Promise<ApiResponse>): StatusCase {
  return {
    status: 400,
    when,
    send,
    verify: (response) => {
      expect(
        errorMessage(response)
          .split('; ')
          .map((problem) => problem.split(':')[0]),
      ).toContain(field);
    },
  };
}

function tokenResponseChecks(response: ApiResponse): void {
  expect(response.body).toEqual({
    id: expect.any(String),
    token_type: 'Bearer',
    access_token: expect.any(String),
    refresh_token: expect.any(String),
    expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$/),
    tokenType: 'Bearer',
    accessToken: expect.any(String),
    refreshToken: expect.any(String),
    expiresAt: expect.any(String),
  });
}

function emptyBody(response: ApiResponse): void {
  expect(response.text).toBe('');
}

function listWithTotal(response: ApiResponse): void {
  expect(Array.isArray(response.body)).toBe(true);
  expect(response.headers.get('x-total-count')).toMatch(/^\d+$/);
  expect(Number(response.headers.get('x-total-count'))).toBeGreaterThanOrEqual(
    (response.body as unknown[]).length,
  );
}

async function queuedMessage(api: MountApi): Promise<string> {
  const id = uniqueId('queued');
  const response = await api.call('POST', '/messages', { json: { ...text('to cancel'), id } });
  expect(response.status).toBe(202);
  return id;
}

/**
 * A message that stays Pending: scheduled an hour ahead (an idle modem takes a message due now
 * in the turn it is queued, before the POST is even answered).
 */
async function pendingMessage(api: MountApi): Promise<string> {
  const id = uniqueId('pending');
  const scheduleAt = new Date(api.gateway.clock.now() + 3_600_000).toISOString();
  const response = await api.call('POST', '/messages', { json: { ...text('to cancel'), id, scheduleAt } });
  expect(response.status).toBe(202);
  return id;
}

/** The rows of the spec's endpoint table, with each success and error status that can arise. */
const rows: Row[] = [
  {
    route: 'POST /auth/token',
    cases: [
      {
        status: 201,
        when: 'Basic credentials ask for scopes',
        send: (api) => api.call('POST', '/auth/token', { json: { scopes: ['messages:send'], ttl: 600 } }),
        verify: tokenResponseChecks,
      },
      {
        status: 201,
        when: 'a Bearer token with tokens:manage asks for scopes it holds',
        send: async (api) =>
          api.call('POST', '/auth/token', {
            json: { scopes: ['messages:read'] },
            authorization: await api.bearer(['tokens:manage', 'messages:read']),
          }),
        verify: tokenResponseChecks,
      },
      badInput('the scopes are empty', 'scopes', (api) =>
        api.call('POST', '/auth/token', { json: { scopes: [] } }),
      ),
      badInput('the system scope tokens:refresh is requested', 'scopes[0]', (api) =>
        api.call('POST', '/auth/token', { json: { scopes: ['tokens:refresh'] } }),
      ),
      {
        status: 403,
        when: 'a tokens:manage token asks for a scope it does not hold',
        send: async (api) =>
          api.call('POST', '/auth/token', {
            json: { scopes: ['messages:send'] },
            authorization: await api.bearer(['tokens:manage']),
          }),
      },
    ],
  },
  {
    route: 'POST /auth/token/refresh',
    cases: [
      {
        status: 201,
        when: 'the latest refresh token is presented; the old pair stops working',
        send: async (api) => {
          const pair = await api.issueTokens(['devices:list']);
          const devicesWith = async (accessToken: string) =>
            (await api.call('GET', '/devices', { authorization: `Bearer ${accessToken}` })).status;
          const refreshed = await api.call('POST', '/auth/token/refresh', {
            authorization: `Bearer ${pair.refresh_token}`,
          });
          const renewed = (refreshed.body as TokenPair).access_token;
          expect(await devicesWith(renewed)).toBe(200);
          expect(await devicesWith(pair.access_token)).toBe(401);
          // Presenting the rotated refresh token again is a replay: refused, and its family revoked.
          const replay = await api.call('POST', '/auth/token/refresh', {
            authorization: `Bearer ${pair.refresh_token}`,
          });
          expect(replay.status).toBe(401);
          expect(await devicesWith(renewed)).toBe(401);
          return refreshed;
        },
        verify: tokenResponseChecks,
      },
      {
        status: 401,
        when: 'an access token is presented instead of a refresh token',
        send: async (api) =>
          api.call('POST', '/auth/token/refresh', { authorization: await api.bearer(['all:any']) }),
      },
    ],
  },
  {
    route: 'DELETE /auth/token/{jti}',
    cases: [
      {
        status: 204,
        when: 'a token id is revoked; the token stops working',
        send: async (api) => {
          const pair = await api.issueTokens(['devices:list']);
          const revoked = await api.call('DELETE', `/auth/token/${pair.id}`);
          expect(
            (await api.call('GET', '/devices', { authorization: `Bearer ${pair.access_token}` })).status,
          ).toBe(401);
          return revoked;
        },
        verify: emptyBody,
      },
    ],
  },
  {
    route: 'GET /devices',
    cases: [
      {
        status: 200,
        when: 'the simulated modem is attached',
        send: (api) => api.call('GET', '/devices'),
        verify: (response) => {
          expect(response.body).toEqual([expect.objectContaining({ id: expect.any(String) })]);
        },
      },
    ],
  },
  {
    route: 'DELETE /devices/{id}',
    cases: [
      {
        status: 204,
        when: 'a known device is removed',
        send: async (api) => {
          // Removing the only modem would starve the other rows: this one gets its own gateway.
          const own = await startGatewayUnderTest();
          try {
            const [device] = (await own.request('GET', `${api.base}/devices`)).body as { id: string }[];
            const removed = await own.request('DELETE', `${api.base}/devices/${device?.id}`);
            expect((await own.request('GET', `${api.base}/devices`)).body).toEqual([]);
            return removed;
          } finally {
            await own.stop();
          }
        },
        verify: emptyBody,
      },
      {
        status: 404,
        when: 'the device id is unknown',
        send: (api) => api.call('DELETE', '/devices/no-such-device'),
      },
    ],
  },
  {
    route: 'GET /health',
    cases: [
      {
        status: 200,
        when: 'the modem is ready, without credentials (warn: only the simulated one can send)',
        send: (api) => api.call('GET', '/health', { authorization: null }),
        verify: (response) => {
          expect(response.body).toMatchObject({
            status: 'warn',
            checks: { 'modems:real': { status: 'warn', observedValue: 0 } },
          });
        },
      },
      {
        status: 503,
        when: 'the queue is full (not ready), with the health response as body',
        send: (api) => api.fullQueue('GET', '/health', { authorization: null }),
        verify: (response) => {
          expect(response.body).toMatchObject({ status: 'fail', checks: expect.any(Object) });
        },
      },
    ],
  },
  {
    route: 'GET /health/ready',
    cases: [
      {
        status: 200,
        when: 'the modem is ready, without credentials (warn: only the simulated one can send)',
        send: (api) => api.call('GET', '/health/ready', { authorization: null }),
        verify: (response) => {
          expect(response.body).toMatchObject({ status: 'warn', checks: expect.any(Object) });
        },
      },
      {
        status: 503,
        when: 'the queue is full (not ready), as GET /health',
        send: (api) => api.fullQueue('GET', '/health/ready', { authorization: null }),
        verify: (response) => {
          expect(response.body).toMatchObject({ status: 'fail', checks: expect.any(Object) });
        },
      },
    ],
  },
  ...['/health/live', '/health/startup'].map((path) => ({
    route: `GET ${path}`,
    cases: [
      {
        status: 200,
        when: 'the gateway has started, even with a full queue (only readiness fails on it)',
        send: (api: MountApi) => api.fullQueue('GET', path, { authorization: null }),
        verify: (response: ApiResponse) => {
          expect(response.body).toMatchObject({ status: 'pass', checks: {} });
        },
      },
    ],
  })),
  {
    route: 'GET /inbox',
    cases: [
      {
        status: 200,
        when: 'an SMS was received',
        send: (api) => api.call('GET', '/inbox?type=SMS&limit=10&offset=0'),
        verify: (response) => {
          listWithTotal(response);
          expect(response.body).toContainEqual(
            expect.objectContaining({ type: 'SMS', sender: '+15550002222', contentPreview: 'inbox row' }),
          );
        },
      },
      badInput('limit is 0', 'limit', (api) => api.call('GET', '/inbox?limit=0')),
      badInput('limit is 501', 'limit', (api) => api.call('GET', '/inbox?limit=501')),
      badInput('offset is negative', 'offset', (api) => api.call('GET', '/inbox?offset=-1')),
      badInput('the type is not an incoming message type', 'type', (api) =>
        api.call('GET', '/inbox?type=FAX'),
      ),
      badInput('from is not a date-time', 'from', (api) => api.call('GET', '/inbox?from=yesterday')),
    ],
  },
  {
    route: 'GET /inbox/{id}',
    cases: [
      {
        status: 200,
        when: 'the message was received (the inbox:read scope, docs/decisions.md#tokens-and-scopes)',
        send: async (api) => {
          const listed = await api.call('GET', '/inbox?type=SMS&limit=500');
          const row = (listed.body as { id: string; contentPreview: string }[]).find(
            (item) => item.contentPreview === 'inbox row',
          );
          return api.call('GET', `/inbox/${row?.id ?? 'missing'}`);
        },
        verify: (response) => {
          expect(response.body).toMatchObject({
            type: 'SMS',
            sender: '+15550002222',
            contentPreview: 'inbox row',
          });
        },
      },
      {
        status: 404,
        when: 'the id is unknown',
        send: (api) => api.call('GET', '/inbox/no-such-incoming-message'),
        verify: (response) => {
          expect(response.body).toMatchObject({
            message: expect.stringContaining('no-such-incoming-message'),
          });
        },
      },
    ],
  },
  {
    route: 'GET /inbox/{id}/attachments/{partId}',
    cases: [
      {
        status: 404,
        when: 'the id is unknown (as the app answers; no message here has attachments)',
        send: (api) => api.call('GET', '/inbox/no-such-incoming-message/attachments/1'),
        verify: (response) => {
          expect(response.body).toMatchObject({
            message: expect.stringContaining('no-such-incoming-message'),
          });
        },
      },
    ],
  },
  {
    route: 'POST /inbox/refresh',
    cases: [
      {
        status: 202,
        when: 'a refresh is requested',
        send: (api) => api.call('POST', '/inbox/refresh', { json: { triggerWebhooks: false } }),
        verify: emptyBody,
      },
      badInput('triggerWebhooks is not a boolean', 'triggerWebhooks', (api) =>
        api.call('POST', '/inbox/refresh', { json: { triggerWebhooks: 'yes' } }),
      ),
      badInput('the device is unknown', 'deviceId', (api) =>
        api.call('POST', '/inbox/refresh', { json: { deviceId: 'no-such-device' } }),
      ),
    ],
  },
  {
    route: 'POST /messages/inbox/export',
    cases: [
      {
        status: 202,
        when: 'a period is exported (the spec leaves the status open)',
        send: (api) =>
          api.call('POST', '/messages/inbox/export', {
            json: { since: '2026-01-01T00:00:00.000Z', until: '2026-01-02T00:00:00+01:00' },
          }),
        verify: (response) => {
          // An object, not an empty body: client-php's RequestInboxExport needs one.
          expect(response.body).toEqual({});
        },
      },
      badInput('since is missing', 'since', (api) =>
        api.call('POST', '/messages/inbox/export', { json: { until: '2026-01-02T00:00:00.000Z' } }),
      ),
      badInput('until is before since', 'until', (api) =>
        api.call('POST', '/messages/inbox/export', {
          json: { since: '2026-01-02T00:00:00.000Z', until: '2026-01-01T00:00:00.000Z' },
        }),
      ),
    ],
  },
  {
    route: 'GET /logs',
    cases: [
      {
        status: 200,
        when: 'a range with Z and with an offset is read',
        send: (api) => api.call('GET', '/logs?from=2026-01-01T11:00:00.000Z&to=2026-01-01T14:00:00%2B01:00'),
        verify: (response) => {
          expect(response.body).toEqual(
            expect.arrayContaining([expect.objectContaining({ message: expect.any(String) })]),
          );
        },
      },
    ],
  },
  {
    route: 'GET /messages',
    cases: [
      {
        status: 200,
        when: 'messages are listed with their content',
        send: async (api) => {
          await queuedMessage(api);
          return api.call('GET', '/messages?includeContent=true&limit=5&offset=0');
        },
        verify: (response) => {
          listWithTotal(response);
          expect((response.body as unknown[])[0]).toMatchObject({ textMessage: { text: 'to cancel' } });
        },
      },
      badInput('limit is not a number', 'limit', (api) => api.call('GET', '/messages?limit=many')),
      badInput('includeContent is not a boolean', 'includeContent', (api) =>
        api.call('GET', '/messages?includeContent=yes'),
      ),
      badInput('to is not a date-time', 'to', (api) => api.call('GET', '/messages?to=2026-13-01')),
    ],
  },
  {
    route: 'POST /messages',
    cases: [
      {
        status: 202,
        when: 'a valid message is sent; Location names its state URL',
        send: (api) => api.call('POST', '/messages', { json: { ...text('hello'), id: uniqueId('sent') } }),
        verify: async (response, api) => {
          const { id } = response.body as { id: string };
          // Pending, or Processed when the free modem took it before the answer was written.
          expect(['Pending', 'Processed']).toContain((response.body as { state: string }).state);
          const location = response.headers.get('location') ?? '';
          expect(location).toBe(`${api.base}/messages/${id}`);
          const state = await api.gateway.request('GET', location);
          expect(state.status).toBe(200);
          expect(state.body).toMatchObject({ id });
        },
      },
      badInput('phoneNumbers is missing', 'phoneNumbers', (api) =>
        api.call('POST', '/messages', { json: { textMessage: { text: 'x' } } }),
      ),
      badInput('a phone number is not E.164', 'phoneNumbers[0]', (api) =>
        api.call('POST', '/messages', { json: { phoneNumbers: ['0151 234'], textMessage: { text: 'x' } } }),
      ),
      badInput('the data port is above 65535', 'dataMessage.port', (api) =>
        api.call('POST', '/messages', {
          json: { phoneNumbers: ['+15551234567'], dataMessage: { data: 'AQI=', port: 65_536 } },
        }),
      ),
      badInput('the priority is above 127', 'priority', (api) =>
        api.call('POST', '/messages', { json: { ...text('x'), priority: 128 } }),
      ),
      badInput('the SIM number is above 3', 'simNumber', (api) =>
        api.call('POST', '/messages', { json: { ...text('x'), simNumber: 4 } }),
      ),
      badInput('the device is unknown', 'deviceId', (api) =>
        api.call('POST', '/messages', { json: { ...text('x'), deviceId: 'no-such-device' } }),
      ),
      {
        status: 400,
        when: 'both ttl and validUntil are given',
        send: (api) =>
          api.call('POST', '/messages', {
            json: { ...text('x'), ttl: 60, validUntil: '2026-01-02T00:00:00.000Z' },
          }),
        verify: (response) => {
          expect(errorMessage(response)).toMatch(/ttl|validUntil/);
        },
      },
      {
        status: 400,
        when: 'textMessage and dataMessage are both given',
        send: (api) =>
          api.call('POST', '/messages', {
            json: { ...text('x'), dataMessage: { data: 'AQI=', port: 16 } },
          }),
        verify: (response) => {
          expect(errorMessage(response)).toMatch(/textMessage|dataMessage/);
        },
      },
      {
        status: 409,
        when: 'the id is already used',
        send: async (api) => {
          const id = await queuedMessage(api);
          return api.call('POST', '/messages', { json: { ...text('again'), id } });
        },
      },
      {
        status: 503,
        when: 'the queue limit is reached',
        send: (api) => api.fullQueue('POST', '/messages', { json: text('one too many') }),
      },
    ],
  },
  {
    route: 'GET /messages/{id}',
    cases: [
      {
        status: 200,
        when: 'the message exists',
        send: async (api) => api.call('GET', `/messages/${await pendingMessage(api)}`),
        verify: (response) => {
          expect(response.body).toMatchObject({
            state: 'Pending',
            recipients: [{ phoneNumber: '+15551234567', state: 'Pending' }],
            textMessage: { text: 'to cancel' },
          });
        },
      },
      {
        status: 404,
        when: 'the id is unknown (the spec lists no status for it; docs/decisions.md#errors-and-json)',
        send: (api) => api.call('GET', '/messages/no-such-message'),
      },
    ],
  },
  {
    route: 'DELETE /messages/{id}',
    cases: [
      {
        status: 200,
        when: 'a Pending message is cancelled',
        send: async (api) => api.call('DELETE', `/messages/${await pendingMessage(api)}`),
        verify: (response) => {
          expect(response.body).toMatchObject({ state: 'Cancelled' });
        },
      },
      {
        status: 400,
        when: 'the message was already delivered, naming its state',
        send: async (api) => {
          const id = await queuedMessage(api);
          await api.gateway.runUntil(
            async () =>
              ((await api.call('GET', `/messages/${id}`)).body as { state: string }).state === 'Delivered',
            'delivery',
          );
          return api.call('DELETE', `/messages/${id}`);
        },
        verify: (response) => {
          expect(errorMessage(response)).toContain('Delivered');
        },
      },
      {
        status: 404,
        when: 'the id is unknown',
        send: (api) => api.call('DELETE', '/messages/no-such-message'),
      },
    ],
  },
  {
    route: 'GET /settings',
    cases: [
      {
        status: 200,
        when: 'settings are read; write-only keys are absent',
        send: async (api) => {
          await api.call('PATCH', '/settings', { json: { webhooks: { signing_key: 'secret-key' } } });
          return api.call('GET', '/settings');
        },
        verify: (response) => {
          expect(response.body).toMatchObject({ messages: expect.any(Object), webhooks: expect.any(Object) });
          expect(response.text).not.toContain('secret-key');
        },
      },
    ],
  },
  {
    route: 'PUT /settings',
    cases: [
      {
        status: 200,
        when: 'the settings are replaced',
        send: (api) =>
          api.call('PUT', '/settings', { json: { messages: { limit_period: 'PerHour', limit_value: 50 } } }),
        verify: (response) => {
          expect(response.body).toMatchObject({ messages: { limit_period: 'PerHour', limit_value: 50 } });
        },
      },
      badInput('a key is unknown', 'messages.nope', (api) =>
        api.call('PUT', '/settings', { json: { messages: { nope: 1 } } }),
      ),
    ],
  },
  {
    route: 'PATCH /settings',
    cases: [
      {
        status: 200,
        when: 'one setting changes and null resets another',
        send: (api) =>
          api.call('PATCH', '/settings', {
            json: { messages: { send_interval_min: 2, limit_period: null } },
          }),
        verify: (response) => {
          expect(response.body).toMatchObject({
            messages: { send_interval_min: 2, limit_period: 'Disabled' },
          });
        },
      },
      badInput('an enum value is unknown', 'messages.limit_period', (api) =>
        api.call('PATCH', '/settings', { json: { messages: { limit_period: 'Weekly' } } }),
      ),
    ],
  },
  {
    route: 'GET /webhooks',
    cases: [
      {
        status: 200,
        when: 'webhooks are listed',
        send: async (api) => {
          await api.call('POST', '/webhooks', {
            json: { id: 'listed', url: 'https://receiver.example/listed', event: 'sms:sent' },
          });
          return api.call('GET', '/webhooks');
        },
        verify: (response) => {
          expect(response.body).toContainEqual({
            id: 'listed',
            url: 'https://receiver.example/listed',
            event: 'sms:sent',
          });
        },
      },
    ],
  },
  {
    route: 'POST /webhooks',
    cases: [
      {
        status: 201,
        when: 'a webhook is registered, and again with the same id to replace it',
        send: async (api) => {
          const hook = { id: 'replaced', url: 'https://receiver.example/first', event: 'sms:received' };
          expect((await api.call('POST', '/webhooks', { json: hook })).status).toBe(201);
          return api.call('POST', '/webhooks', { json: { ...hook, url: 'http://127.0.0.1:9/second' } });
        },
        verify: async (response, api) => {
          const second = { id: 'replaced', url: 'http://127.0.0.1:9/second', event: 'sms:received' };
          expect(response.body).toEqual(second);
          const listed = (await api.call('GET', '/webhooks')).body as { id: string }[];
          expect(listed.filter((hook) => hook.id === 'replaced')).toEqual([second]);
        },
      },
      badInput('the URL is plain http to another host', 'url', (api) =>
        api.call('POST', '/webhooks', { json: { url: 'http://receiver.example/h', event: 'sms:received' } }),
      ),
      badInput('the event is unknown', 'event', (api) =>
        api.call('POST', '/webhooks', { json: { url: 'https://receiver.example/h', event: 'sms:lost' } }),
      ),
    ],
  },
  {
    route: 'DELETE /webhooks/{id}',
    cases: [
      {
        status: 204,
        when: 'a registered webhook is removed',
        send: async (api) => {
          await api.call('POST', '/webhooks', {
            json: { id: 'removed', url: 'https://receiver.example/removed', event: 'sms:received' },
          });
          return api.call('DELETE', '/webhooks/removed');
        },
        verify: async (response, api) => {
          emptyBody(response);
          const listed = (await api.call('GET', '/webhooks')).body as { id: string }[];
          expect(listed.map((hook) => hook.id)).not.toContain('removed');
        },
      },
      {
        status: 204,
        when: 'the id is not registered (idempotent; the spec leaves the status open)',
        send: (api) => api.call('DELETE', '/webhooks/never-registered'),
        verify: emptyBody,
      },
    ],
  },
];

/**
 * The table refuses a wrong password on every route at each mount while its clock stands still,
 * far more than the 10 the product allows in 5 minutes (throttling has suites of its own).
 */
const tableThrottle = { maxFailures: 10_000 };

/** 401 without credentials, with a wrong password or a forged token; 403 for a token lacking the scope. */
function accessCases(route: SpecRoute): StatusCase[] {
  const request = (authorization: string | null) => (api: MountApi) =>
    api.call(route.method, route.probe.path, { json: route.probe.json, authorization });
  // Every route is refused a wrong password once; the table's gateway allows that many failures
  // (`tableThrottle`), and a valid login right after shows the refusal locked nobody out.
  const refusedThenCleared = (authorization: string) => async (api: MountApi) => {
    const refused = await request(authorization)(api);
    expect((await api.call('GET', '/webhooks')).status).toBe(200);
    return refused;
  };
  const challenged = (response: ApiResponse) => {
    expect(response.headers.get('www-authenticate')).toMatch(/Basic.*Bearer|Bearer.*Basic/);
  };
  const cases: StatusCase[] = [
    { status: 401, when: 'no credentials are sent', send: request(null), verify: challenged },
    {
      status: 401,
      when: 'the password is wrong',
      send: refusedThenCleared(wrongBasicHeader),
      verify: challenged,
    },
    {
      status: 401,
      when: 'the Bearer token is not one this gateway signed',
      send: refusedThenCleared(forgedBearerHeader),
      verify: challenged,
    },
  ];
  const scope = requiredScope(route);
  if (scope !== undefined) {
    const other = scope === 'logs:read' ? 'devices:list' : 'logs:read';
    cases.push({
      status: 403,
      when: `the token holds ${other} but not ${scope}`,
      send: async (api) =>
        api.call(route.method, route.probe.path, {
          json: route.probe.json,
          authorization: await api.bearer([other]),
        }),
    });
  }
  return cases;
}

/** Every row with its access cases added; public routes have none. */
const table: Row[] = rows.map((row) => {
  const route = specRoutes.find((candidate) => routeName(candidate) === row.route);
  return {
    route: row.route,
    cases: [...row.cases, ...(route && route.access !== 'public' ? accessCases(route) : [])],
  };
});

it('has a row for every route of the spec', () => {
  const specRows = specRoutes.map(routeName);
  expect(rows.map((row) => row.route).sort()).toEqual([...specRows].sort());
});

describe.each(mounts)('the endpoint table at base "%s"', (base) => {
  let gateway: GatewayUnderTest;
  let full: GatewayUnderTest;
  let api: MountApi;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    [gateway, full] = await Promise.all([
      startGatewayUnderTest({}, { loginThrottle: tableThrottle }),
      startGatewayUnderTest({ maxPendingMessages: 2 }, { loginThrottle: tableThrottle }),
    ]);
    full.gateway.setSendingPaused(true);
    for (const id of ['held-1', 'held-2']) {
      expect((await full.request('POST', '/messages', { json: { ...text('held'), id } })).status).toBe(202);
    }
    await gateway.receiveSms('+15550002222', 'inbox row');
    api = {
      base,
      gateway,
      call: (method, path, request) => gateway.request(method, `${base}${path}`, request),
      fullQueue: (method, path, request) => full.request(method, `${base}${path}`, request),
      issueTokens: (scopes) => gateway.issueTokens(scopes),
      async bearer(scopes) {
        const key = scopes.join(' ');
        const known = tokens.get(key) ?? (await gateway.bearer(scopes));
        tokens.set(key, known);
        return known;
      },
    };
  });
  afterAll(async () => {
    await Promise.all([gateway?.stop(), full?.stop()]);
  });

  for (const row of table) {
    describe(row.route, () => {
      for (const statusCase of row.cases) {
        it(`answers ${statusCase.status} when ${statusCase.when}`, async () => {
          const response = await statusCase.send(api);
          expect(response.status, response.text).toBe(statusCase.status);
          // Errors carry upstream's body (docs/decisions.md#errors-and-json), with our `field`
          // where the error names one; the health probes answer 503 with their report.
          if (response.status >= 400 && !row.route.startsWith('GET /health')) {
            const named = (response.body as { field?: unknown }).field !== undefined;
            expect(response.body).toEqual({
              message: expect.any(String),
              ...(named ? { field: expect.any(String) } : {}),
            });
          }
          await statusCase.verify?.(response, api);
        });
      }
    });
  }
});
