import { z } from 'zod';

/** How a listener the settings turn on stands (`ListenerState`, server/services/settings/switchedListener.ts). */
export const listenerStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('off') }),
  z.object({ state: z.literal('listening'), host: z.string(), port: z.number().int() }),
  z.object({ state: z.literal('failed'), error: z.string() }),
]);

/** GET /gateway/v1/bridges: the ways in beside HTTP (docs/email-and-smpp.md). */
export const bridgeStatusSchema = z.object({
  smtp: listenerStateSchema,
  smpp: listenerStateSchema,
});

/** POST /gateway/v1/bridges/{name}/test. */
export const bridgeTestResultSchema = z.object({ ok: z.boolean(), detail: z.string() });
