import type { McpEndpoint } from '../../mcp/mcpEndpoint.js';
import { type ApiBuilder, JsonText, requestBody } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

const tag = 'AI agents (MCP)';
const access = { scope: 'mcp:use' } as const;

/**
 * The JSON-RPC error the MCP SDK's stateless examples answer GET and DELETE with: there is no
 * server-sent stream to open (the server never speaks first) and no session to end.
 */
const notAllowed = new JsonText(
  JSON.stringify({
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST each message' },
    id: null,
  }),
);

/**
 * /mcp (docs/mcp.md): the Model Context Protocol's Streamable HTTP transport for AI agents,
 * behind a token holding `mcp:use` (and, per tool, the tool's own scope).
 */
export function registerMcpRoutes(api: ApiBuilder, deps: { endpoint: McpEndpoint }): void {
  api.route({
    method: 'post',
    path: '/mcp',
    rootOnly: true,
    summary: 'MCP (Streamable HTTP): a JSON-RPC request or notification of an AI agent',
    tag,
    access,
    responses: {
      200: { description: 'The JSON-RPC answer' },
      202: { description: 'A notification, taken' },
      ...errorResponses(400, 406, 415, ...authErrors),
    },
    async handle({ ctx, principal }) {
      if (!principal) throw new Error('the MCP route is behind a scope');
      await deps.endpoint.handle(ctx.req, ctx.res, principal, requestBody(ctx));
      return { status: 200, streamed: true };
    },
  });
  for (const method of ['get', 'delete'] as const) {
    api.route({
      method,
      path: '/mcp',
      rootOnly: true,
      summary: 'MCP: no server-sent stream and no session here (stateless); answers 405',
      tag,
      access,
      responses: { 405: { description: 'POST each message' }, ...errorResponses(...authErrors) },
      async handle() {
        return { status: 405, body: notAllowed, headers: { Allow: 'POST' } };
      },
    });
  }
}
