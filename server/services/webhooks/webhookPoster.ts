import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface PostOptions {
  /** Give up when no connection is made within this time. */
  connectTimeoutMs: number;
  /** Give up when the whole exchange (connect, send, response head and body) takes longer. */
  totalTimeoutMs: number;
}

export interface PostResult {
  status: number;
}

/** Posts a JSON body; resolves with the status, rejects on network errors and timeouts. */
export type WebhookPoster = (
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
) => Promise<PostResult>;

export interface NodePosterOptions {
  /** Extra trusted CAs (a self-signed receiver in tests, a company CA in an office). */
  ca?: string | Buffer;
}

/**
 * node:http(s) never follows redirects, which is what we want: a 3xx is an answer that is not
 * 2xx, so the delivery counts as failed rather than being re-sent to a place nobody registered.
 */
export function createNodePoster(posterOptions: NodePosterOptions = {}): WebhookPoster {
  return (url, body, headers, options) =>
    new Promise<PostResult>((resolve, reject) => {
      const target = new URL(url);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(target, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ca: posterOptions.ca,
        agent: false,
      });
      const total = setTimeout(
        () => request.destroy(new Error(`no complete answer within ${options.totalTimeoutMs} ms`)),
        options.totalTimeoutMs,
      );
      request.on('socket', (socket) => {
        if (!socket.connecting) return;
        const connect = setTimeout(
          () => request.destroy(new Error(`no connection within ${options.connectTimeoutMs} ms`)),
          options.connectTimeoutMs,
        );
        socket.once('connect', () => clearTimeout(connect));
        socket.once('secureConnect', () => clearTimeout(connect));
        socket.once('close', () => clearTimeout(connect));
      });
      request.on('response', (response) => {
        // Drain the body so the socket closes cleanly; receivers' bodies are not used.
        response.resume();
        response.on('end', () => {
          clearTimeout(total);
          resolve({ status: response.statusCode ?? 0 });
        });
        response.on('error', (error) => {
          clearTimeout(total);
          reject(error);
        });
      });
      request.on('error', (error) => {
        clearTimeout(total);
        reject(error);
      });
      request.end(body);
    });
}
