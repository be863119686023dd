/**
 * The event kinds of the UI's live stream, GET /gateway/v1/events (server/http/routes/eventStreamRoutes.ts):
 * message changes (the message view), incoming messages (`IncomingMessageEvent`), device changes
 * (`{ deviceId }`) and log entries.
 */
export const LiveEventNames = ['message', 'incoming', 'device', 'log'] as const;
export type LiveEventName = (typeof LiveEventNames)[number];
