import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReceivedRequest {
  body: string;
  headers: IncomingMessage['headers'];
  receivedAt: number;
}

export type Responder = (request: ReceivedRequest, index: number) => number | Promise<number>;

/** A real webhook receiver on loopback that records every request it gets. */
export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  respondWith(responder: Responder): void;
  close(): Promise<void>;
}

function handler(state: { requests: ReceivedRequest[]; responder: Responder }) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const received = {
        body: Buffer.concat(chunks).toString('utf8'),
        headers: request.headers,
        receivedAt: Date.now(),
      };
      const index = state.requests.push(received) - 1;
      const status = await state.responder(received, index);
      if (status >= 300 && status < 400) response.setHeader('location', 'http://127.0.0.1:9/elsewhere');
      response.writeHead(status).end();
    });
  };
}

export async function startReceiver(
  options: { tls?: { key: string; cert: string } } = {},
): Promise<WebhookReceiver> {
  const state = { requests: [] as ReceivedRequest[], responder: (() => 200) as Responder };
  const server = options.tls
    ? createHttpsServer(options.tls, handler(state))
    : createHttpServer(handler(state));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/hook`,
    requests: state.requests,
    respondWith(responder) {
      state.responder = responder;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A throw-away CA and a server certificate for 127.0.0.1 signed by it (openssl CLI). */
export function createTestCertificates(): { ca: string; key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'smsgw-tls-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=Test CA',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
    );
    run(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
    );
    const extensions = join(dir, 'ext.cnf');
    execFileSync('sh', ['-c', `printf 'subjectAltName=IP:127.0.0.1\\n' > ${extensions}`]);
    run(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      'ext.cnf',
      '-out',
      'server.pem',
    );
    return {
      ca: readFileSync(join(dir, 'ca.pem'), 'utf8'),
      key: readFileSync(join(dir, 'server.key'), 'utf8'),
      cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
