import { PassThrough } from 'node:stream';
import type { EventBus } from '../../events/eventBus.js';
import { toMessageView } from '../../messages/messageView.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

export interface EventStreamDependencies {
  events: EventBus;
  /** The `deviceId` of a message no modem has taken yet (see toMessageView). */
  gatewayDeviceId: string;
  /** Comment lines keep idle connections (and proxies) from timing out. Default 15 s. */
  heartbeatMs?: number;
}

/**
 * GET /gateway/v1/events — Server-Sent Events for the UI: message changes, incoming SMS,
 * device changes and log entries, as they happen. Browsers' EventSource cannot send an
 * Authorization header, so the UI reads it with fetch() streaming.
 */
export function registerEventStreamRoutes(api: ApiBuilder, deps: EventStreamDependencies): void {
  api.route({
    method: 'get',
    path: '/gateway/v1/events',
    summary: 'Live event stream (text/event-stream): message, incoming, device and log events',
    tag: 'Gateway extensions',
    access: { scope: 'all:any' },
    responses: { 200: { description: 'An endless text/event-stream' }, ...errorResponses(...authErrors) },
    handle: async ({ ctx }) => {
      const stream = new PassThrough();
      const send = (event: string, data: unknown) =>
        stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const unsubscribe = [
        deps.events.on('message:enqueued', ({ message }) =>
          send('message', toMessageView(message, true, deps.gatewayDeviceId)),
        ),
        deps.events.on('message:updated', ({ message }) =>
          send('message', toMessageView(message, true, deps.gatewayDeviceId)),
        ),
        deps.events.on('message:received', (incoming) => send('incoming', incoming)),
        deps.events.on('device:updated', ({ deviceId }) => send('device', { deviceId })),
        deps.events.on('log', (record) => send('log', record)),
      ];
      const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), deps.heartbeatMs ?? 15_000);
      const close = () => {
        clearInterval(heartbeat);
        for (const stop of unsubscribe) stop();
        stream.end();
      };
      ctx.req.on('close', close);
      ctx.req.socket.setTimeout(0);
      ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
      ctx.set('Cache-Control', 'no-cache, no-transform');
      ctx.set('X-Accel-Buffering', 'no');
      stream.write(': connected\n\n');
      ctx.body = stream;
      return { status: 200 };
    },
  });
}
