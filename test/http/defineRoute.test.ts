import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RouteTable } from '../../server/doors/http/defineRoute.js';
import type { AccessControl } from '../../server/services/auth/accessControl.js';

const refuseAll: AccessControl = {
  authenticate: () => Promise.reject(new Error('not used')),
  authenticateLogin: () => Promise.reject(new Error('not used')),
  authorize: () => {},
  confirmPassword: () => Promise.reject(new Error('not used')),
  watch: () => () => {},
};

function table(): RouteTable {
  return new RouteTable({
    accessControl: refuseAll,
    bases: [''],
    info: { title: 'Test', version: '0.0.1', servers: [''] },
  });
}

const okRoute = {
  summary: 'things',
  tag: 'Things',
  access: { scope: 'messages:read' } as const,
  responses: { 200: { description: 'ok', schema: z.object({ id: z.string() }) } },
  handle: async () => ({ status: 200, body: { id: 'x' } }),
};

describe('RouteTable', () => {
  it('refuses a path declared twice for the same method, aliases included', () => {
    const routes = table();
    routes.route({ ...okRoute, method: 'get', path: '/things/:id', aliases: ['/thing/:id'] });
    expect(() => routes.route({ ...okRoute, method: 'get', path: '/thing/:id' })).toThrow(/declared twice/);
    expect(() => routes.route({ ...okRoute, method: 'delete', path: '/thing/:id' })).not.toThrow();
  });

  it('documents path and query parameters, body, scope and aliases from the zod schemas', () => {
    const routes = table();
    routes.route({
      ...okRoute,
      method: 'post',
      path: '/things/:id',
      aliases: ['/thing/:id'],
      query: z.object({
        dryRun: z.enum(['true', 'false']).describe('only check'),
        page: z.string().optional(),
      }),
      body: z.object({ name: z.string().min(1) }),
      handle: async ({ body, query, params }) => ({
        status: 200,
        body: { id: `${params.id}${body.name}${query.page}` },
      }),
    });
    const document = routes.openApi() as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const operation = document.paths['/things/{id}']?.post;
    expect(operation?.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      {
        name: 'dryRun',
        in: 'query',
        required: true,
        description: 'only check',
        schema: { type: 'string', enum: ['true', 'false'] },
      },
      { name: 'page', in: 'query', required: false, schema: { type: 'string' } },
    ]);
    expect(operation?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { type: 'object', required: ['name'] } } },
    });
    expect(operation?.['x-required-scope']).toBe('messages:read');
    expect(operation?.['x-aliases']).toEqual(['/thing/{id}']);
  });
});
