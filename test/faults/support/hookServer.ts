import { createServer } from 'node:http';

/** A webhook receiver that can be started on a port chosen BEFORE it exists (to be "down" first). */
export interface HookServer {
  /** http://127.0.0.1:<port>/hook */
  url: string;
  bodies: unknown[];
  close(): Promise<void>;
}

export function listenForHooks(port: number): Promise<HookServer> {
  const bodies: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      response.writeHead(200).end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${port}/hook`,
        bodies,
        close: () =>
          new Promise<void>((closed) => {
            server.closeAllConnections();
            server.close(() => closed());
          }),
      }),
    );
  });
}
