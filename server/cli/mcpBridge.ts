import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  ErrorCode as JsonRpcErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../errors/gatewayError.js';

/**
 * `mcp` (docs/mcp.md): a desktop agent starts this and speaks MCP on its stdin and stdout; each
 * message goes on to the running gateway's /mcp endpoint and each answer comes back. The gateway
 * owns the database, so the tools run there, under the token's caller, quota and audit trail.
 * Resolves with the exit code once the agent closes stdin.
 */
export async function runMcpBridge(
  target: { gatewayUrl: string; authorization: string },
  io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const agent = new StdioServerTransport(
    io.stdin as ConstructorParameters<typeof StdioServerTransport>[0],
    io.stdout as ConstructorParameters<typeof StdioServerTransport>[1],
  );
  const gateway = new StreamableHTTPClientTransport(new URL('/mcp', target.gatewayUrl), {
    requestInit: { headers: { Authorization: target.authorization } },
  });
  const initializing = new Set<string | number>();

  gateway.onmessage = (message) => {
    // Later requests carry the version the two ends agreed on, as the SDK's own client does.
    if (isJSONRPCResultResponse(message) && initializing.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') gateway.setProtocolVersion(version);
    }
    void agent.send(message);
  };
  gateway.onerror = (error) => io.stderr.write(`gateway: ${describeError(error)}\n`);
  agent.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === 'initialize') initializing.add(message.id);
    gateway.send(message).catch((error: unknown) => {
      // The agent waits for an answer to each request: it gets one, saying why there is none.
      if (!isJSONRPCRequest(message)) return;
      void agent.send({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: JsonRpcErrorCode.InternalError,
          message: `the gateway at ${target.gatewayUrl} did not answer: ${describeError(error)}`,
        },
      });
    });
  };

  return new Promise<number>((resolve) => {
    agent.onclose = () => {
      void gateway.close().finally(() => resolve(0));
    };
    void gateway.start().then(() => agent.start());
  });
}
