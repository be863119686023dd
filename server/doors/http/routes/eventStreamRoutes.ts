import { PassThrough } from 'node:stream';
import type { LiveEventName } from '../../../contract/domain/liveEvents.js';
import type { MessageRecord } from '../../../contract/domain/message.js';
import type { MessageView } from '../../../contract/domain/messageView.js';
import { errorBodySchema } from '../../../contract/schemas/errorBodySchema.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import type { Logger } from '../../../logging/logger.js';
import type { AccessControl, Principal } from '../../../services/auth/accessControl.js';
import type { EventBus } from '../../../services/events/eventBus.js';
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
  /** Most streams open at once for one token (with its refreshes) or the Basic login. Default 8. */
  maxStreamsPerCaller?: number;
  /** Most streams open at once in all. Default 32. */
  maxStreams?: number;
}

export const defaultMaxBufferedBytes = 1024 * 1024;
/** A window, a browser tab or two, an integration: a few each; each stream costs every event. */
const defaultMaxStreamsPerCaller = 8;
const defaultMaxStreams = 32;

/**
 * Who a stream is counted against: a token family (a token and every pair refreshed from it,
 * which is how one client keeps its login) or the one Basic login.
 */
function streamOwner(principal: Principal | undefined): string {
  if (principal?.kind !== 'bearer') return 'basic';
  return `token:${principal.tokenFamily ?? principal.tokenId ?? ''}`;
}

/** Open streams per owner; `take` refuses once the owner or everyone is at the limit. */
function streamSlots(perOwner: number, inAll: number) {
  const open = new Map<string, number>();
  let total = 0;
  return {
    take(owner: string): () => void {
      const held = open.get(owner) ?? 0;
      if (held >= perOwner || total >= inAll) {
        throw new GatewayError(
          ErrorCode.TooManyStreams,
          held >= perOwner
            ? `too many event streams: these credentials hold ${held}, the most they may; close one first`
            : `too many event streams: ${total} are open, the most the gateway serves; try again later`,
        );
      }
      open.set(owner, held + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const left = (open.get(owner) ?? 1) - 1;
        if (left === 0) open.delete(owner);
        else open.set(owner, left);
      };
    },
  };
}

/**
 * GET /gateway/v1/events — Server-Sent Events for the UI: message changes, incoming SMS,
 * device changes and log entries, as they happen. Browsers' EventSource cannot send an
 * Authorization header, so the UI reads it with fetch() streaming.
 *
 * A stream lives no longer than what opened it: it ends when its token expires or is revoked,
 * or when the Basic login changes (the client reconnects with what it holds now). And a client
 * that stops reading is dropped once `maxBufferedBytes` wait for it, so 20 stalled readers and a
 * few hundred long messages cannot hold hundreds of megabytes. Every event is written to every
 * stream, so their number is bounded per caller and in all: one more is a 429.
 */
export function registerEventStreamRoutes(api: ApiBuilder, deps: EventStreamDependencies): void {
  const logger = deps.logger.child('events');
  const maxBufferedBytes = deps.maxBufferedBytes ?? defaultMaxBufferedBytes;
  const slots = streamSlots(
    deps.maxStreamsPerCaller ?? defaultMaxStreamsPerCaller,
    deps.maxStreams ?? defaultMaxStreams,
  );
  api.route({
    method: 'get',
    path: '/gateway/v1/events',
    summary: 'Live event stream (text/event-stream): message, incoming, device, log and refused-ports events',
    tag: 'Gateway extensions',
    access: { scope: 'all:any' },
    responses: {
      200: { description: 'An endless text/event-stream' },
      ...errorResponses(...authErrors),
      429: {
        description: 'Too many failed logins, or as many event streams open as allowed; see Retry-After',
        schema: errorBodySchema,
      },
    },
    handle: async ({ ctx, principal }) => {
      const release = slots.take(streamOwner(principal));
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
        deps.events.on('ports:refused-changed', () => send('refused-ports', {})),
        deps.events.on('log', (record) => send('log', record)),
      ];
      const heartbeat = setInterval(() => {
        if (open && unsent() === 0) stream.write(': keep-alive\n\n');
      }, deps.heartbeatMs ?? 15_000);
      const close = () => {
        if (!open) return;
        open = false;
        release();
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
