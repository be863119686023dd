import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on a loopback port whose answers each test scripts. */
export interface LoopbackServer {
  url: string;
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

export async function startLoopbackServer(
  handle: (request: IncomingMessage, response: ServerResponse, body: string) => void,
): Promise<LoopbackServer> {
  const requests: LoopbackServer['requests'] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handle(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
