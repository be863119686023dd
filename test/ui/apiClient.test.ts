import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, buildUrl, createApiClient } from '../../renderer/src/api/apiClient.js';
import { createGatewayApi } from '../../renderer/src/api/gatewayApi.js';
import { type LoopbackServer, startLoopbackServer } from './loopbackServer.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function answer(
  status: number,
  body: string,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
) {
  return startLoopbackServer((_request, response) => {
    response.writeHead(status, headers);
    response.end(body);
  });
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('the API client', () => {
  it('sends the session token and JSON body and returns the parsed answer', async () => {
    server = await answer(202, '{"id":"m1","state":"Pending"}');
    const client = createApiClient({ baseUrl: server.url, authorization: () => 'Bearer abc' });
    await expect(client.post('/messages', { phoneNumbers: ['+1555'] })).resolves.toEqual({
      id: 'm1',
      state: 'Pending',
    });
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe('Bearer abc');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ phoneNumbers: ['+1555'] });
  });

  it('turns a 400 into an "invalid" error carrying the server message and field', async () => {
    server = await answer(
      400,
      '{"message":"messages.limit_value: Too small","field":"messages.limit_value"}',
    );
    const client = createApiClient({ baseUrl: server.url, authorization: () => undefined });
    const error = await failureOf(client.patch('/settings', {}));
    expect(error.kind).toBe('invalid');
    expect(error.status).toBe(400);
    expect(error.message).toBe('messages.limit_value: Too small');
    expect(error.field).toBe('messages.limit_value');
  });

  it('names no field when the error body has none (upstream\'s `{"message"}` alone)', async () => {
    server = await answer(400, '{"message":"messages.limit_value: Too small"}');
    const client = createApiClient({ baseUrl: server.url, authorization: () => undefined });
    expect((await failureOf(client.patch('/settings', {}))).field).toBeUndefined();
  });

  it.each([
    [403, 'forbidden'],
    [404, 'not-found'],
    [409, 'conflict'],
    [503, 'unavailable'],
    [500, 'server'],
  ])('maps status %i to the %s kind', async (status, kind) => {
    server = await answer(status, '{"message":"nope"}');
    const client = createApiClient({ baseUrl: server.url, authorization: () => undefined });
    expect((await failureOf(client.get('/x'))).kind).toBe(kind);
  });

  it('reports a 401 to the session once and fails the call when the session has ended', async () => {
    server = await answer(401, '{"message":"token expired"}');
    let unauthorized = 0;
    const client = createApiClient({
      baseUrl: server.url,
      authorization: () => 'Bearer old',
      onUnauthorized: () => {
        unauthorized++;
        return false;
      },
    });
    expect((await failureOf(client.get('/devices'))).kind).toBe('unauthorized');
    expect(unauthorized).toBe(1);
  });

  it('sends the request once more with the renewed token when the session renews it on 401', async () => {
    server = await startLoopbackServer((request, response) => {
      const fresh = request.headers.authorization === 'Bearer fresh';
      response.writeHead(fresh ? 200 : 401, { 'Content-Type': 'application/json' });
      response.end(fresh ? '[]' : '{"message":"token expired"}');
    });
    let token = 'stale';
    const client = createApiClient({
      baseUrl: server.url,
      authorization: () => `Bearer ${token}`,
      onUnauthorized: async () => {
        token = 'fresh';
        return true;
      },
    });
    await expect(client.get('/devices')).resolves.toEqual([]);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer stale',
      'Bearer fresh',
    ]);
  });

  it('does not loop when the renewed token is refused too', async () => {
    server = await answer(401, '{"message":"revoked"}');
    let renewals = 0;
    const client = createApiClient({
      baseUrl: server.url,
      authorization: () => 'Bearer x',
      onUnauthorized: () => {
        renewals++;
        return true;
      },
    });
    expect((await failureOf(client.get('/devices'))).kind).toBe('unauthorized');
    expect(renewals).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it('names the status when the error body is not JSON', async () => {
    server = await answer(502, '', { 'Content-Type': 'text/plain' });
    const client = createApiClient({ baseUrl: server.url, authorization: () => undefined });
    expect((await failureOf(client.get('/x'))).message).toContain('502');
  });

  it('reports an unreachable gateway as a network error', async () => {
    const closed = await answer(200, '{}');
    const url = closed.url;
    await closed.close();
    const client = createApiClient({ baseUrl: url, authorization: () => undefined });
    const error = await failureOf(client.get('/health'));
    expect(error.kind).toBe('network');
    expect(error.status).toBe(0);
  });

  it('leaves empty filter values out of the query string', () => {
    expect(
      buildUrl('http://h:1', '/messages', { state: '', deviceId: undefined, limit: 50, search: 'a b' }),
    ).toBe('http://h:1/messages?limit=50&search=a+b');
  });

  it('reads the X-Total-Count header of a message page', async () => {
    server = await answer(200, '[{"id":"a"}]', {
      'Content-Type': 'application/json',
      'X-Total-Count': '120',
    });
    const api = createGatewayApi(createApiClient({ baseUrl: server.url, authorization: () => undefined }));
    await expect(api.listMessages({ state: 'Sent' }, 50, 100)).resolves.toEqual({
      items: [{ id: 'a' }],
      total: 120,
    });
    expect(server.requests[0]?.url).toBe('/messages?state=Sent&limit=50&offset=100&includeContent=true');
  });
});
