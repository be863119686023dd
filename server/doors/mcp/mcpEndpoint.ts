import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { omitNulls } from '../../contract/domain/apiJson.js';
import type { Scope } from '../../contract/domain/scopes.js';
import { mcpActionPrefix } from '../../contract/domain/submissionWays.js';
import { ErrorCode, GatewayError, retryAfterSeconds } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { AccessControl, Principal } from '../../services/auth/accessControl.js';
import { callerOf } from '../../services/auth/appDirectory.js';
import type { RecordSubmission } from '../../services/auth/submissionRecord.js';
import type { McpTool } from './mcpTools.js';

interface Sdk {
  McpServer: typeof import('@modelcontextprotocol/sdk/server/mcp.js').McpServer;
  Transport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
}

export interface McpEndpointDependencies {
  tools: readonly McpTool[];
  accessControl: Pick<AccessControl, 'authorize'>;
  /** The audit trail's recorder: each tool call that changes something, as an API change. */
  recordChange?: RecordSubmission;
  version: string;
  logger: Logger;
}

const instructions =
  'Desktop SMS Gateway sends and receives SMS through the modems and phones of this office PC. ' +
  'Numbers are international (+15551234567). A sent message is queued first: read its state with ' +
  'get_message; while it waits, `waiting` says why and until when. Every call acts as the app (or ' +
  'person) the token belongs to, on its quota.';

/**
 * The MCP endpoint (Streamable HTTP, stateless: docs/mcp.md). Each request gets a server of its
 * own for the principal that sent it, listing only the tools its scopes open; a tool call runs
 * as that caller, so quota, SIMs and what it may read are the services' to apply, as for every
 * other way in.
 */
export interface McpEndpoint {
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    principal: Principal,
    body: unknown,
  ): Promise<void>;
}

export function createMcpEndpoint(deps: McpEndpointDependencies): McpEndpoint {
  const logger = deps.logger.child('mcp');
  const holds = (principal: Principal, scope: Scope) => {
    try {
      deps.accessControl.authorize(principal, scope);
      return true;
    } catch {
      return false;
    }
  };

  const call = async (tool: McpTool, args: unknown, principal: Principal): Promise<CallToolResult> => {
    try {
      const { answer, subject } = await tool.run(args, callerOf(principal.user));
      if (tool.changes) {
        deps.recordChange?.({
          principal,
          action: `${mcpActionPrefix}${tool.name}`,
          summary: tool.title,
          subject: subject ?? '',
          fields: args !== null && typeof args === 'object' ? Object.keys(args) : [],
        });
      }
      return { content: [{ type: 'text', text: JSON.stringify(omitNulls(answer), null, 2) }] };
    } catch (error) {
      return {
        isError: true,
        content: [{ type: 'text', text: JSON.stringify({ error: toolError(error) }) }],
      };
    }
  };

  const toolError = (error: unknown) => {
    if (!(error instanceof GatewayError)) {
      logger.error('a tool call failed', {
        error: error instanceof Error ? (error.stack ?? error.message) : error,
      });
      return { message: 'internal error' };
    }
    return {
      message: error.message,
      ...(error.field !== undefined && { field: error.field }),
      ...((error.code === ErrorCode.QuotaExceeded || error.code === ErrorCode.TooManyAttempts) && {
        retryAfterSeconds: retryAfterSeconds(error),
      }),
    };
  };

  // The SDK (with its JSON Schema and HTTP layers) is loaded at the first call, not at start:
  // most gateways never serve an agent, and an idle one keeps what it loaded.
  let sdk: Promise<Sdk> | undefined;
  const loadSdk = () => {
    sdk ??= Promise.all([
      import('@modelcontextprotocol/sdk/server/mcp.js'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    ]).then(([mcp, http]) => ({ McpServer: mcp.McpServer, Transport: http.StreamableHTTPServerTransport }));
    return sdk;
  };

  const serverFor = ({ McpServer }: Sdk, principal: Principal): McpServer => {
    const server = new McpServer(
      { name: 'desktop-sms-gateway', title: 'Desktop SMS Gateway', version: deps.version },
      { instructions },
    );
    for (const tool of deps.tools.filter((candidate) => holds(principal, candidate.scope))) {
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: tool.description,
          inputSchema: tool.input,
          annotations: tool.annotations,
        },
        (args: unknown) => call(tool, args, principal),
      );
    }
    return server;
  };

  return {
    async handle(request, response, principal, body) {
      const loaded = await loadSdk();
      const server = serverFor(loaded, principal);
      // Stateless: no session to keep between requests, so nothing outlives a token's revocation.
      const transport = new loaded.Transport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
    },
  };
}
