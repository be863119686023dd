import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiBases } from '../../server/doors/http/app.js';
import {
  type HarnessResponse,
  type HttpHarness,
  type RequestOptions,
  startHttpHarness,
} from '../support/httpHarness.js';

interface Operation {
  responses: Record<string, { content?: { 'application/json': { schema: Record<string, unknown> } } }>;
  'x-aliases'?: string[];
  'x-required-scope'?: string;
  security?: unknown[];
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

let harness: HttpHarness;
let document: Document;
beforeAll(async () => {
  harness = await startHttpHarness();
  document = (await harness.request('/docs/openapi.json', { authorization: null })).body as Document;
});
afterAll(async () => {
  await harness.close();
});

/** The documented operation a concrete request path hits (any mount, any alias). */
function operationFor(method: string, path: string): Operation {
  const bare = path.split('?')[0] ?? '';
  const base = [...apiBases]
    .sort((a, b) => b.length - a.length)
    .find((prefix) => prefix === '' || bare.startsWith(`${prefix}/`));
  const relative = bare.slice(base?.length ?? 0);
  for (const [template, operations] of Object.entries(document.paths)) {
    const operation = operations[method.toLowerCase()];
    if (!operation) continue;
    for (const candidate of [template, ...(operation['x-aliases'] ?? [])]) {
      const pattern = new RegExp(`^${candidate.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      if (pattern.test(relative)) return operation;
    }
  }
  throw new Error(`no documented operation for ${method} ${path}`);
}

/** Sends the request and checks the answer's status and body against the document. */
async function conforming(path: string, options: RequestOptions = {}): Promise<HarnessResponse> {
  const response = await harness.request(path, options);
  const operation = operationFor(options.method ?? 'GET', path);
  const documented = operation.responses[String(response.status)];
  expect(
    documented,
    `${options.method ?? 'GET'} ${path} answered an undocumented ${response.status}`,
  ).toBeDefined();
  const schema = documented?.content?.['application/json']?.schema;
  if (schema) {
    const result = z.fromJSONSchema(schema).safeParse(response.body);
    expect(result.success, `${path} ${response.status}: ${result.error?.message}`).toBe(true);
  } else {
    expect(response.text).toBe('');
  }
  return response;
}

const message = { id: 'doc-1', textMessage: { text: 'hi' }, phoneNumbers: ['+15551234567'] };

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 listing the three mounts', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers.map((server) => server.url)).toEqual(['/', '/3rdparty/v1', '/api/3rdparty/v1']);
  });

  it('documents every route of the spec with its scope', () => {
    const scopes = Object.fromEntries(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => [
          `${method.toUpperCase()} ${path}`,
          operation['x-required-scope'] ?? (operation.security?.length === 0 ? 'public' : 'refresh'),
        ]),
      ),
    );
    expect(scopes).toMatchObject({
      'POST /messages': 'messages:send',
      'GET /messages': 'messages:list',
      'GET /messages/{id}': 'messages:read',
      'DELETE /messages/{id}': 'messages:cancel',
      'POST /messages/inbox/export': 'messages:export',
      'GET /devices': 'devices:list',
      'DELETE /devices/{id}': 'devices:delete',
      'GET /inbox': 'inbox:list',
      'POST /inbox/refresh': 'inbox:refresh',
      'GET /settings': 'settings:read',
      'PATCH /settings': 'settings:write',
      'PUT /settings': 'settings:write',
      'GET /logs': 'logs:read',
      'GET /health': 'public',
      'GET /webhooks': 'webhooks:list',
      'POST /auth/token': 'tokens:manage',
    });
  });

  it('is browsable at /docs as a self-contained page', async () => {
    const page = await harness.request('/docs', { authorization: null });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('/docs/openapi.json');
    expect(page.text).not.toMatch(/<script[^>]+src=|<link[^>]+href="https?:/);
  });
});

describe('real responses match the documented schemas', () => {
  it('for the message routes, success and error', async () => {
    await conforming('/messages', { method: 'POST', json: message });
    await conforming('/3rdparty/v1/message', { method: 'POST', json: { ...message, id: 'doc-2' } });
    await conforming('/messages', { method: 'POST', json: message });
    await conforming('/messages', { method: 'POST', json: { phoneNumbers: [] } });
    await conforming('/messages', { method: 'POST', json: message, authorization: null });
    await conforming('/messages?includeContent=true');
    await conforming('/api/3rdparty/v1/messages/doc-1');
    await conforming('/messages/missing');
    await conforming('/messages/doc-2', { method: 'DELETE' });
    await conforming('/messages/missing', { method: 'DELETE' });
  });

  it('for devices, inbox, logs, settings and health', async () => {
    await harness.storage.inbox.insert({
      id: 'in-doc',
      type: 'SMS',
      deviceId: 'modem-1',
      simNumber: 1,
      sender: '+15557654321',
      content: 'hello',
      receivedAt: harness.clock.now(),
    });
    harness.storage.logs.append({
      priority: 'INFO',
      module: 'http',
      message: 'x',
      createdAt: harness.clock.now(),
    });
    await conforming('/devices');
    await conforming('/device/unknown', { method: 'DELETE' });
    await conforming('/inbox');
    await conforming('/inbox?limit=0');
    await conforming('/inbox/refresh', { method: 'POST', json: {} });
    await conforming('/inbox/export', {
      method: 'POST',
      json: { since: '2025-12-31T00:00:00Z', until: '2026-01-02T00:00:00Z' },
    });
    await conforming('/logs');
    await conforming('/settings');
    await conforming('/settings', { method: 'PATCH', json: { messages: { processing_order: 'FIFO' } } });
    await conforming('/settings', { method: 'PATCH', json: { messages: { nope: 1 } } });
    await conforming('/settings', { method: 'PUT', json: {} });
    await conforming('/health', { authorization: null });
    await conforming('/webhooks');
  });
});
