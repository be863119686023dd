/**
 * The event kinds of the UI's live stream, GET /gateway/v1/events (server/doors/http/routes/eventStreamRoutes.ts):
 * message changes (the message view), incoming messages (`IncomingMessageEvent`), device changes
 * (`{ deviceId }`), log entries, and changes of the ports discovery may not open (`{}`: read
 * GET /gateway/v1/serial-ports/refused).
 */
export const LiveEventNames = ['message', 'incoming', 'device', 'log', 'refused-ports'] as const;
export type LiveEventName = (typeof LiveEventNames)[number];
