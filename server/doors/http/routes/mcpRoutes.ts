import type { McpEndpoint } from '../../mcp/mcpEndpoint.js';
import { type ApiBuilder, requestBody } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/**
 * /mcp (docs/mcp.md): the Model Context Protocol's Streamable HTTP transport for AI agents,
 * behind a token holding `mcp:use` (and, per tool, the tool's own scope). Stateless, so GET (a
 * server-sent stream) and DELETE (a session's end) answer 405 from the transport itself.
 */
export function registerMcpRoutes(api: ApiBuilder, deps: { endpoint: McpEndpoint }): void {
  for (const method of ['post', 'get', 'delete'] as const) {
    api.route({
      method,
      path: '/mcp',
      rootOnly: true,
      summary:
        method === 'post'
          ? 'MCP (Streamable HTTP): a JSON-RPC request or notification of an AI agent'
          : 'MCP: no server-sent stream or session here (stateless); answers 405',
      tag: 'AI agents (MCP)',
      access: { scope: 'mcp:use' },
      responses: {
        200: { description: 'The JSON-RPC answer' },
        202: { description: 'A notification, taken' },
        405: { description: 'GET and DELETE: the endpoint keeps no sessions' },
        ...errorResponses(400, 406, 415, ...authErrors),
      },
      async handle({ ctx, principal }) {
        if (!principal) throw new Error('the MCP route is behind a scope');
        const body = method === 'post' ? requestBody(ctx) : undefined;
        await deps.endpoint.handle(ctx.req, ctx.res, principal, body);
        return { status: 200, streamed: true };
      },
    });
  }
}
