import type { UnauthorizedHandler } from './apiClient.js';
import { createSseParser, type ServerSentEvent } from './sseParser.js';

/**
 * Keeps GET /gateway/v1/events open with fetch + a stream reader (EventSource cannot carry the
 * Authorization header) and reconnects with back-off whenever the stream drops.
 */

export type StreamState = 'connecting' | 'open' | 'retrying' | 'closed';

export interface EventStreamOptions {
  url: string;
  authorization: () => string | undefined;
  onEvent: (event: ServerSentEvent) => void;
  onState?: (state: StreamState, retryInMs?: number) => void;
  /** On a 401: true when a fresh credential is in place (reconnect), else the stream ends. */
  onUnauthorized?: UnauthorizedHandler;
  fetch?: typeof fetch;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export interface EventStreamHandle {
  close(): void;
}

/** 1 s, 2 s, 4 s … capped at 30 s; the server's `retry:` is the floor when it sent one. */
export function reconnectDelayMs(failedAttempts: number, serverRetryMs?: number): number {
  const exponential = Math.min(30_000, 1000 * 2 ** Math.max(0, failedAttempts - 1));
  return Math.max(exponential, serverRetryMs ?? 0);
}

export function openEventStream(options: EventStreamOptions): EventStreamHandle {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as number));
  let closed = false;
  let failures = 0;
  let timer: unknown;
  let controller: AbortController | undefined;
  let serverRetryMs: number | undefined;

  async function connect(): Promise<void> {
    controller = new AbortController();
    options.onState?.('connecting');
    const parser = createSseParser();
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    const authorization = options.authorization();
    if (authorization) headers.Authorization = authorization;
    try {
      const response = await doFetch(options.url, {
        headers,
        signal: controller.signal,
        credentials: 'omit',
      });
      if (response.status === 401) {
        const renewed = await options.onUnauthorized?.();
        if (renewed !== true) {
          closed = true;
          options.onState?.('closed');
          return;
        }
        throw new Error('event stream credential renewed');
      }
      if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
      failures = 0;
      options.onState?.('open');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.push(value)) options.onEvent(event);
      }
    } catch {
      // A dropped connection and a refused one are handled alike: wait, then try again.
    }
    serverRetryMs = parser.retryMs ?? serverRetryMs;
    if (closed) return;
    failures++;
    const delay = reconnectDelayMs(failures, serverRetryMs);
    options.onState?.('retrying', delay);
    timer = setTimer(() => void connect(), delay);
  }

  void connect();
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimer(timer);
      controller?.abort();
      options.onState?.('closed');
    },
  };
}
