import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import type { FuzzRequest } from './malformedRequests.js';

/** Sends fuzz requests over real sockets and tallies what came back. */
export interface FuzzTally {
  byStatus: Map<number, number>;
  /** Requests whose connection failed or was closed without an answer. */
  noAnswer: number;
  /** Example request for each 5xx status seen, for the failure message. */
  serverErrors: { status: number; request: string }[];
}

export function emptyTally(): FuzzTally {
  return { byStatus: new Map(), noAnswer: 0, serverErrors: [] };
}

export function createFuzzAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 16 });
}

/**
 * The longest a fuzz request may take, answered or not. The socket timeout alone does not end a
 * request to the live event stream: its keep-alive comment every 15 s keeps the socket busy, so a
 * fuzzed GET that happens to be a valid subscription would hold its worker for ever.
 */
const requestDeadlineMs = 20_000;

export function send(baseUrl: string, agent: Agent, fuzz: FuzzRequest, tally: FuzzTally): Promise<void> {
  const url = new URL(baseUrl);
  return new Promise<void>((settle) => {
    const deadline = setTimeout(() => outgoing.destroy(new Error('deadline')), requestDeadlineMs);
    const resolve = () => {
      clearTimeout(deadline);
      settle();
    };
    // A server may answer (413, 431) and then drop the connection: count each request once.
    let counted = false;
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: fuzz.method,
        path: fuzz.path,
        headers: fuzz.headers,
        agent,
        timeout: 15_000,
      },
      (response) => {
        counted = true;
        const status = response.statusCode ?? 0;
        tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
        if (isServerError(status, fuzz.path) && tally.serverErrors.length < 20) {
          tally.serverErrors.push({
            status,
            request: `${fuzz.method} ${fuzz.path.slice(0, 200)} ${JSON.stringify(fuzz.headers)} ${fuzz.body?.subarray(0, 200).toString('latin1') ?? ''}`,
          });
        }
        response.resume();
        response.once('end', resolve);
        response.once('close', resolve);
        response.once('error', () => resolve());
      },
    );
    outgoing.once('timeout', () => outgoing.destroy(new Error('timeout')));
    outgoing.once('error', () => {
      if (!counted) tally.noAnswer++;
      counted = true;
      resolve();
    });
    outgoing.end(fuzz.body);
  });
}

/** Writes bytes that are not HTTP and reads whatever comes back; the status line, if any, is tallied. */
export function sendRaw(baseUrl: string, bytes: Buffer, tally: FuzzTally): Promise<void> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) socket.end();
    });
    socket.once('error', () => undefined);
    socket.once('close', () => {
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);
      if (status === 0) tally.noAnswer++;
      else tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
      if (status >= 500)
        tally.serverErrors.push({ status, request: bytes.subarray(0, 200).toString('latin1') });
      resolve();
    });
    socket.write(bytes);
  });
}

/**
 * A 5xx that is not the gateway honestly reporting its own state: /health answers 503 while no
 * modem is online (as in this suite), which is its documented meaning, not a failure.
 */
function isServerError(status: number, path: string): boolean {
  if (status < 500) return false;
  return !(status === 503 && /^\/health(?:\?|$)/.test(path));
}
