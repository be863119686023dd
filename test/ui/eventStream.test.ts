import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream, reconnectDelayMs, type StreamState } from '../../renderer/src/api/eventStream.js';
import type { ServerSentEvent } from '../../renderer/src/api/sseParser.js';
import { type LoopbackServer, startLoopbackServer } from './loopbackServer.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function waitFor(check: () => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      if (check()) resolve();
      else if (Date.now() - started > 5000) reject(new Error(`timed out waiting for ${what}`));
      else setTimeout(poll, 10);
    };
    poll();
  });
}

describe('the live event stream', () => {
  it.each([
    [1, undefined, 1000],
    [2, undefined, 2000],
    [4, undefined, 8000],
    [10, undefined, 30_000],
    [1, 5000, 5000],
  ])('waits after failure %i (server retry %s) %i ms', (failures, serverRetry, delay) => {
    expect(reconnectDelayMs(failures, serverRetry)).toBe(delay);
  });

  it('delivers events written in pieces, with the Authorization header on the request', async () => {
    const responses: ServerResponse[] = [];
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write(': connected\n\nevent: message\nda');
      responses.push(response);
    });
    const events: ServerSentEvent[] = [];
    const handle = openEventStream({
      url: `${server.url}/gateway/v1/events`,
      authorization: () => 'Bearer live',
      onEvent: (event) => events.push(event),
    });
    await waitFor(() => responses.length === 1, 'the connection');
    responses[0]?.write('ta: {"id":"m1"}\n\nevent: log\ndata: {}\n\n');
    await waitFor(() => events.length === 2, 'two events');
    expect(events).toEqual([
      { event: 'message', data: '{"id":"m1"}' },
      { event: 'log', data: '{}' },
    ]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer live');
    handle.close();
  });

  it('reconnects after the server drops the stream, waiting the back-off delay', async () => {
    let connections = 0;
    server = await startLoopbackServer((_request, response) => {
      connections++;
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.end(`event: device\ndata: {"n":${connections}}\n\n`);
    });
    const delays: number[] = [];
    const states: StreamState[] = [];
    const events: string[] = [];
    const handle = openEventStream({
      url: server.url,
      authorization: () => undefined,
      onEvent: (event) => events.push(event.data),
      onState: (state) => states.push(state),
      // The delay is recorded and the retry run at once: the schedule is what is under test.
      setTimer: (run, ms) => {
        delays.push(ms);
        if (delays.length < 3) queueMicrotask(run);
        return delays.length;
      },
    });
    await waitFor(() => delays.length === 3, 'three reconnect attempts');
    handle.close();
    expect(events).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    // Each connection opened before it dropped, so the back-off starts again every time.
    expect(delays).toEqual([1000, 1000, 1000]);
    expect(states.slice(0, 3)).toEqual(['connecting', 'open', 'retrying']);
    expect(states.at(-1)).toBe('closed');
  });

  it('backs off further while the gateway keeps refusing', async () => {
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(503);
      response.end();
    });
    const delays: number[] = [];
    const handle = openEventStream({
      url: server.url,
      authorization: () => undefined,
      onEvent: () => undefined,
      setTimer: (run, ms) => {
        delays.push(ms);
        if (delays.length < 4) queueMicrotask(run);
        return delays.length;
      },
    });
    await waitFor(() => delays.length === 4, 'four attempts');
    handle.close();
    expect(delays).toEqual([1000, 2000, 4000, 8000]);
  });

  it('gives up and reports the end of the session on 401', async () => {
    server = await startLoopbackServer((_request, response) => {
      response.writeHead(401);
      response.end();
    });
    let unauthorized = 0;
    const delays: number[] = [];
    openEventStream({
      url: server.url,
      authorization: () => 'Bearer expired',
      onEvent: () => undefined,
      onUnauthorized: () => {
        unauthorized++;
        return false;
      },
      setTimer: (_run, ms) => delays.push(ms),
    });
    await waitFor(() => unauthorized === 1, 'the 401 report');
    expect(delays).toEqual([]);
  });

  it('reconnects with the renewed token when the session renews it on 401', async () => {
    server = await startLoopbackServer((request, response) => {
      if (request.headers.authorization !== 'Bearer fresh') {
        response.writeHead(401);
        response.end();
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write('event: device\ndata: {}\n\n');
    });
    let token = 'stale';
    const events: string[] = [];
    const handle = openEventStream({
      url: server.url,
      authorization: () => `Bearer ${token}`,
      onEvent: (event) => events.push(event.event),
      onUnauthorized: () => {
        token = 'fresh';
        return true;
      },
      setTimer: (run) => queueMicrotask(run),
    });
    await waitFor(() => events.length === 1, 'the event after renewal');
    handle.close();
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer stale',
      'Bearer fresh',
    ]);
  });
});
