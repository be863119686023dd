import { z } from 'zod';

/** Fleet mode in GET /gateway/v1/status (see fleet/fleetMode.ts and fleet/fleetLink.ts for the states). */
export const fleetStatusSchema = z.object({
  enabled: z.boolean(),
  /** State reports queued for the server and not yet taken by it. */
  unreportedStates: z.number().int(),
  /** Why fleet mode is off although configured (e.g. an http:// server URL). */
  problem: z.string().optional(),
  state: z.enum(['registering', 'connected', 'reconnecting', 'rejected']).optional(),
  serverUrl: z.string().optional(),
  deviceId: z.string().optional(),
  /** Only for a reader holding settings:write: with its password it opens the server's API. */
  login: z.string().optional(),
  lastExchangeAt: z.number().optional(),
  lastError: z.string().optional(),
  createdUserPasswordWaiting: z
    .literal(true)
    .optional()
    .describe(
      'the server created a user at registration and its password waits to be shown, once, by POST /gateway/v1/fleet/created-user-password; only for settings:write',
    ),
});
