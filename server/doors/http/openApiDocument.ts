import { z } from 'zod';
import type { AnyRouteSpec } from './defineRoute.js';

/**
 * OpenAPI 3.1 from the routes' own zod schemas, so the document can never drift from what
 * the server validates. JSON Schema draft 2020-12 (zod's default target) is OpenAPI 3.1's dialect.
 */
export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  /** Base paths the same routes are served under, listed as `servers`. */
  servers: readonly string[];
}

type JsonSchema = Record<string, unknown>;

export function buildOpenApiDocument(specs: readonly AnyRouteSpec[], info: OpenApiInfo): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const spec of specs) {
    const path = openApiPath(spec.path);
    paths[path] ??= {};
    paths[path][spec.method] = operation(spec);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: info.servers.map((url) => ({ url: url === '' ? '/' : url })),
    tags: [...new Set(specs.map((spec) => spec.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic' },
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  };
}

/** '/messages/:id' → '/messages/{id}'. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operation(spec: AnyRouteSpec): object {
  const parameters = [...pathParameters(spec.path), ...queryParameters(spec.query)];
  const result: Record<string, unknown> = {
    operationId: `${spec.method}${spec.path.replace(/[^A-Za-z0-9]+(.)?/g, (_all, next: string | undefined) => (next ?? '').toUpperCase())}`,
    summary: spec.summary,
    tags: [spec.tag],
    responses: Object.fromEntries(
      Object.entries(spec.responses).map(([status, response]) => [
        status,
        response.schema
          ? {
              description: response.description,
              content: { 'application/json': { schema: toSchema(response.schema, 'output') } },
            }
          : { description: response.description },
      ]),
    ),
  };
  if (parameters.length > 0) result.parameters = parameters;
  if (spec.body) {
    result.requestBody = {
      required: true,
      content: { 'application/json': { schema: toSchema(spec.body, 'input') } },
    };
  }
  if (spec.access === 'public') result.security = [];
  else {
    result.security = [{ basicAuth: [] }, { bearerAuth: [] }];
    if (typeof spec.access === 'object') result['x-required-scope'] = spec.access.scope;
  }
  if (spec.aliases && spec.aliases.length > 0) result['x-aliases'] = spec.aliases.map(openApiPath);
  return result;
}

function pathParameters(path: string): object[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
}

function queryParameters(query: z.ZodType | undefined): object[] {
  if (!query) return [];
  const schema = toSchema(query, 'input');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: 'query', required: required.has(name), description, schema: rest };
  });
}

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}
