import { PassThrough } from 'node:stream';
import type { AccessControl } from '../../auth/accessControl.js';
import type { LiveEventName } from '../../domain/liveEvents.js';
import type { MessageRecord } from '../../domain/message.js';
import type { MessageView } from '../../domain/messageView.js';
import type { EventBus } from '../../events/eventBus.js';
import type { Logger } from '../../logging/logger.js';
import type { ApiBuilder } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

export interface EventStreamDependencies {
  events: EventBus;
  /** Ends a stream when the credentials that opened it stop being valid. */
  accessControl: AccessControl;
  logger: Logger;
  /** A message as the API shows it (`MessageService.view`). */
  messageView(message: MessageRecord): MessageView;
  /** Comment lines keep idle connections (and proxies) from timing out. Default 15 s. */
  heartbeatMs?: number;
  /** Most bytes one stream may hold unsent before its client is dropped. Default 1 MiB. */
  maxBufferedBytes?: number;
}

export const defaultMaxBufferedBytes = 1024 * 1024;

/**
 * GET /gateway/v1/events — Server-Sent Events for the UI: message changes, incoming SMS,
 * device changes and log entries, as they happen. Browsers' EventSource cannot send an
 * Authorization header, so the UI reads it with fetch() streaming.
 *
 * A stream lives no longer than what opened it: it ends when its token expires or is revoked,
 * or when the Basic login changes (the client reconnects with what it holds now). And a client
 * that stops reading is dropped once `maxBufferedBytes` wait for it, so 20 stalled readers and a
 * few hundred long messages cannot hold hundreds of megabytes.
 */
export function registerEventStreamRoutes(api: ApiBuilder, deps: EventStreamDependencies): void {
  const logger = deps.logger.child('events');
  const maxBufferedBytes = deps.maxBufferedBytes ?? defaultMaxBufferedBytes;
  api.route({
    method: 'get',
    path: '/gateway/v1/events',
    summary: 'Live event stream (text/event-stream): message, incoming, device and log events',
    tag: 'Gateway extensions',
    access: { scope: 'all:any' },
    responses: { 200: { description: 'An endless text/event-stream' }, ...errorResponses(...authErrors) },
    handle: async ({ ctx, principal }) => {
      const stream = new PassThrough();
      let open = true;
      const unsent = () => stream.writableLength + stream.readableLength;
      const send = (event: LiveEventName, data: unknown) => {
        if (!open) return;
        if (unsent() > maxBufferedBytes) {
          logger.warn('dropped a slow event stream client', { unsentBytes: unsent(), ip: ctx.ip });
          close();
          ctx.res.destroy();
          return;
        }
        stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const unsubscribe = [
        deps.events.on('message:enqueued', ({ message }) => send('message', deps.messageView(message))),
        deps.events.on('message:updated', ({ message }) => send('message', deps.messageView(message))),
        deps.events.on('message:received', (incoming) => send('incoming', incoming)),
        deps.events.on('device:updated', ({ deviceId }) => send('device', { deviceId })),
        deps.events.on('log', (record) => send('log', record)),
      ];
      const heartbeat = setInterval(() => {
        if (open && unsent() === 0) stream.write(': keep-alive\n\n');
      }, deps.heartbeatMs ?? 15_000);
      const close = () => {
        if (!open) return;
        open = false;
        clearInterval(heartbeat);
        stopWatching?.();
        for (const stop of unsubscribe) stop();
        stream.end();
      };
      const stopWatching =
        principal &&
        deps.accessControl.watch(principal, ctx.get('authorization'), (reason) => {
          logger.info('event stream ended', { reason });
          if (open) stream.write(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
          close();
        });
      ctx.req.on('close', close);
      ctx.req.socket.setTimeout(0);
      ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
      ctx.set('Cache-Control', 'no-store, no-transform');
      ctx.set('X-Accel-Buffering', 'no');
      stream.write(': connected\n\n');
      ctx.body = stream;
      return { status: 200 };
    },
  });
}
