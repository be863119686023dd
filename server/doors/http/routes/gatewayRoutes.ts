import { z } from 'zod';
import { errorBodySchema } from '../../../contract/schemas/errorBodySchema.js';
import {
  credentialsSchema,
  dailyStatsQuerySchema,
  sendingPauseSchema,
} from '../../../contract/schemas/gatewaySchemas.js';
import { type GatewayStatus, gatewayStatusSchema } from '../../../contract/schemas/gatewayViewSchemas.js';
import { dailyCountViewSchema } from '../../../contract/schemas/modemOperationsSchemas.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import { type CallerRequest, holdsScope, type Principal } from '../../../services/auth/accessControl.js';
import type { LoginChangeRequest } from '../../../services/auth/loginChange.js';
import type { DailyCount } from '../../../services/stats/dailyStats.js';
import { type ApiBuilder, callerOf } from '../defineRoute.js';
import { authErrors, errorResponses } from '../responses.js';

/**
 * Our extensions under /gateway/v1/ about the gateway as a whole (docs/decisions.md#mounts): its
 * status, the fleet user's password, daily counts, the sending pause and the Basic login. The
 * devices' are in deviceRoutes.ts, the webhook deliveries' in webhookRoutes.ts.
 */
export interface GatewayRouteDependencies {
  /**
   * The status is read with `messages:list`; secrets in it (the fleet login) are shown only to a
   * reader who may write them.
   */
  status(reader: { maySeeSecrets: boolean }): GatewayStatus;
  /** The login and password of the user the fleet server created: the first time only. */
  revealCreatedFleetUser(): { login: string; password: string } | undefined;
  dailyStats(days: number): DailyCount[];
  /** Resolves once the choice is on disk: a pause lasts until a person lifts it. */
  setSendingPaused(paused: boolean): Promise<void>;
  /** Needs the current password; ends every token (server/services/auth/loginChange.ts). */
  changeCredentials(caller: CallerRequest, change: LoginChangeRequest): Promise<void>;
}

const tag = 'Gateway extensions';

/** The fleet settings are written with settings:write, so their secrets are read with it too. */
function statusReader(principal: Principal | undefined): { maySeeSecrets: boolean } {
  return { maySeeSecrets: principal !== undefined && holdsScope(principal, 'settings:write') };
}

const createdFleetUserSchema = z.object({ login: z.string(), password: z.string() });

export function registerGatewayRoutes(api: ApiBuilder, deps: GatewayRouteDependencies): void {
  api.route({
    method: 'get',
    path: '/gateway/v1/status',
    summary: 'Gateway status: queue, holds (rate limit, pause), webhook health, simulated modem',
    tag,
    access: { scope: 'messages:list' },
    responses: {
      200: { description: 'Status', schema: gatewayStatusSchema },
      ...errorResponses(...authErrors),
    },
    handle: async ({ principal }) => ({ status: 200, body: deps.status(statusReader(principal)) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/fleet/created-user-password',
    summary:
      'The login and password of the user the fleet server created at registration, shown once: note them',
    tag,
    access: { scope: 'settings:write' },
    responses: {
      200: { description: 'The created user', schema: createdFleetUserSchema },
      ...errorResponses(404, ...authErrors),
    },
    handle: async () => {
      const user = deps.revealCreatedFleetUser();
      if (!user) {
        throw new GatewayError(
          ErrorCode.NotFound,
          'no created password waits: this run registered no new user, or it was shown already',
        );
      }
      return { status: 200, body: user };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/stats/daily',
    summary: 'Sent, delivered, failed and received per local day',
    tag,
    access: { scope: 'messages:list' },
    query: dailyStatsQuerySchema,
    responses: {
      200: {
        description: 'One entry per day, oldest first',
        schema: z.array(dailyCountViewSchema),
      },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ query }) => ({ status: 200, body: deps.dailyStats(query.days) }),
  });

  api.route({
    method: 'post',
    path: '/gateway/v1/sending',
    summary: 'Pause or resume sending (messages keep queueing while paused)',
    tag,
    access: { scope: 'settings:write' },
    body: sendingPauseSchema,
    responses: {
      200: { description: 'Status', schema: gatewayStatusSchema },
      ...errorResponses(400, ...authErrors),
    },
    handle: async ({ body, principal }) => {
      await deps.setSendingPaused(body.paused);
      return { status: 200, body: deps.status(statusReader(principal)) };
    },
  });

  api.route({
    method: 'put',
    path: '/gateway/v1/credentials',
    summary:
      'Change the Basic login (user and password); needs the current password, and ends every token issued so far',
    tag,
    access: { scope: 'all:any' },
    body: credentialsSchema,
    responses: {
      204: { description: 'Changed; the old password and every token issued before no longer work' },
      400: { description: 'A field is missing or invalid; the message names it', schema: errorBodySchema },
      403: {
        description: 'currentPassword is not the current password, or the token lacks all:any',
        schema: errorBodySchema,
      },
      ...errorResponses(401, 429, 500),
    },
    handle: async ({ body, ctx }) => {
      await deps.changeCredentials(callerOf(ctx), body);
      return { status: 204 };
    },
  });
}
