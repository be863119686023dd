import { createServer } from 'node:net';

/** Whether this process could listen on `host:port` now (it listens and closes at once). */
export function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/**
 * The first port after `taken` the gateway could listen on, to offer in the start-up failure
 * window; undefined when none of the next `span` is free. Walking up keeps the number close
 * to the one the user knows (8080 → 8081) and usually skips a Windows excluded range, which
 * refuses its ports just as a taken port does.
 */
export async function nextFreePort(host: string, taken: number, span = 20): Promise<number | undefined> {
  for (let port = taken + 1; port <= Math.min(taken + span, 65_535); port++) {
    if (await canListen(host, port)) return port;
  }
  return undefined;
}
