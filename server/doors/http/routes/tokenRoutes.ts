import { z } from 'zod';
import { toIsoWithOffset } from '../../../clock/isoTime.js';
import { Scopes } from '../../../contract/domain/scopes.js';
import { type IssuedTokenView, issuedTokenViewSchema } from '../../../contract/schemas/tokenViewSchemas.js';
import { ErrorCode, GatewayError } from '../../../errors/gatewayError.js';
import { holdsScope, type Principal } from '../../../services/auth/accessControl.js';
import { parseAuthorization } from '../../../services/auth/authorizationHeader.js';
import { ownerId } from '../../../services/auth/staffDirectory.js';
import type { TokenPair, TokenService } from '../../../services/auth/tokenService.js';
import type { ApiBuilder } from '../defineRoute.js';
import { errorResponse } from '../responses.js';

/**
 * Token lifecycle routes (spec: Endpoints, /auth/token*; Authentication, token lifecycle).
 * A Bearer caller holding `tokens:manage` may only hand out scopes it holds itself, so a
 * narrow management token cannot mint an `all:any` one. Any person may ask with their own
 * password (that is signing in): for scopes their role allows, or `all:any`, which their role
 * limits on every use. The token is theirs: it acts as them, and ends with their account.
 * An owner revokes anyone's tokens; an app, which the spec's API lets revoke tokens, only its
 * own (`tokenHolder`).
 */
export interface TokenRouteDependencies {
  tokens: TokenService;
}

const requestableScopes = Scopes.filter((scope) => scope !== 'tokens:refresh');

export const tokenRequestSchema = z.object({
  ttl: z
    .number()
    .int()
    .min(0)
    .nullish()
    .describe('access token lifetime in seconds; absent or 0: the server default (1 h)'),
  scopes: z.array(z.enum(requestableScopes)).min(1).describe('scopes granted to the token'),
});

/**
 * Both spellings of each field: the app, client-go (`smsgateway/dto_auth.go`) and client-php
 * read snake_case, client-py (`android_sms_gateway/domain.py` TokenResponse.from_dict) and
 * client-rs (`src/types/auth.rs`, `rename_all = "camelCase"`) read camelCase. Each reader
 * ignores the other spelling.
 */
export const tokenResponseSchema = z.object({
  id: z.string().describe('the access token id (JTI), used to revoke it'),
  token_type: z.literal('Bearer'),
  access_token: z.string(),
  refresh_token: z.string(),
  expires_at: z.string().describe('access token expiry, ISO 8601'),
  tokenType: z.literal('Bearer').describe('token_type, for camelCase clients'),
  accessToken: z.string().describe('access_token, for camelCase clients'),
  refreshToken: z.string().describe('refresh_token, for camelCase clients'),
  expiresAt: z.string().describe('expires_at, for camelCase clients'),
});

export function tokenResponse(pair: TokenPair): z.infer<typeof tokenResponseSchema> {
  const expiresAt = toIsoWithOffset(pair.expiresAt);
  return {
    id: pair.id,
    token_type: 'Bearer',
    access_token: pair.accessToken,
    refresh_token: pair.refreshToken,
    expires_at: expiresAt,
    tokenType: 'Bearer',
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    expiresAt,
  };
}

export function registerTokenRoutes(api: ApiBuilder, deps: TokenRouteDependencies): void {
  const { tokens } = deps;

  api.route({
    method: 'post',
    path: '/auth/token',
    summary: 'Issue an access token and a refresh token (Basic, or Bearer with tokens:manage)',
    tag: 'Authentication',
    access: { scope: 'tokens:manage', passwordSuffices: true },
    body: tokenRequestSchema,
    responses: {
      201: { description: 'the new token pair', schema: tokenResponseSchema },
      400: errorResponse('unknown or system scope, empty scopes, ttl out of range'),
      401: errorResponse('missing or wrong credentials'),
      403: errorResponse(
        'the caller lacks tokens:manage or a requested scope, or a Bearer caller asks for a ttl beyond its own expiry',
      ),
    },
    async handle({ body, principal }) {
      if (!principal) throw new Error('a scoped route without a principal');
      const beyond = body.scopes.filter(
        // With the password, `all:any` is the whole of what the role allows.
        (scope) => !(principal.kind === 'basic' && scope === 'all:any') && !holdsScope(principal, scope),
      );
      if (beyond.length > 0) {
        throw new GatewayError(ErrorCode.Forbidden, `scopes: the caller does not hold ${beyond.join(', ')}`, {
          field: 'scopes',
        });
      }
      // A token asking for a token: the new pair may not outlive it (a stolen short session
      // must not turn into a month of access). Basic credentials have no such end.
      const notAfter = principal.kind === 'bearer' ? principal.expiresAt : undefined;
      const user = principal.user.id === ownerId ? undefined : principal.user.id;
      const pair = await tokens.issue(body.scopes, body.ttl ?? undefined, notAfter, user);
      return { status: 201, body: tokenResponse(pair) };
    },
  });

  api.route({
    method: 'post',
    path: '/auth/token/refresh',
    summary: 'Exchange a refresh token for a new pair; the presented pair is revoked',
    tag: 'Authentication',
    access: 'refresh-token',
    responses: {
      201: { description: 'the new token pair', schema: tokenResponseSchema },
      401: errorResponse('not a valid, unused refresh token'),
    },
    async handle({ ctx }) {
      // The access check has already verified this header holds a Bearer refresh token.
      const parsed = parseAuthorization(ctx.get('authorization'));
      if (parsed.scheme !== 'bearer')
        throw new GatewayError(ErrorCode.Unauthorized, 'a refresh token is required');
      return { status: 201, body: tokenResponse(await tokens.refresh(parsed.token)) };
    },
  });

  api.route({
    method: 'delete',
    path: '/auth/token/:jti',
    summary:
      'Revoke a token by id: its pair, its refresh token and every pair refreshed from it (any id of them will do)',
    tag: 'Authentication',
    access: { scope: 'tokens:manage' },
    responses: {
      204: { description: 'revoked (also when it was already revoked or has expired)' },
      400: errorResponse('not a token id this gateway issues'),
      401: errorResponse('missing or wrong credentials'),
      403: errorResponse('the caller lacks tokens:manage'),
    },
    async handle({ params, principal }) {
      await tokens.revoke(params.jti ?? '', principal && tokenHolder(principal));
      return { status: 204 };
    },
  });

  api.route({
    method: 'get',
    path: '/gateway/v1/tokens',
    summary: 'The live tokens: each issued pair with every pair refreshed from it, newest first',
    tag: 'Authentication',
    access: { scope: 'tokens:manage' },
    responses: {
      200: { description: 'the live tokens', schema: z.array(issuedTokenViewSchema) },
      401: errorResponse('missing or wrong credentials'),
      403: errorResponse('the caller lacks tokens:manage'),
    },
    async handle({ principal }) {
      const body: IssuedTokenView[] = tokens.list().map((family) => ({
        id: family.id,
        scopes: family.scopes,
        issuedBy: family.issuedBy,
        issuedAt: toIsoWithOffset(family.issuedAt),
        expiresAt: toIsoWithOffset(family.expiresAt),
        ...(family.refreshedAt === undefined ? {} : { refreshedAt: toIsoWithOffset(family.refreshedAt) }),
        ...(family.lastUsedAt === undefined ? {} : { lastUsedAt: toIsoWithOffset(family.lastUsedAt) }),
        current: principal?.tokenFamily === family.id,
      }));
      return { status: 200, body };
    },
  });

  api.route({
    method: 'delete',
    path: '/gateway/v1/tokens',
    summary: "Revoke every token, the caller's and the desktop window's included; the password still works",
    tag: 'Authentication',
    access: { scope: 'tokens:manage' },
    responses: {
      204: { description: 'every token issued so far is revoked' },
      401: errorResponse('missing or wrong credentials'),
      403: errorResponse('the caller lacks tokens:manage'),
    },
    async handle() {
      await tokens.revokeAll();
      return { status: 204 };
    },
  });
}

/** Whose tokens the caller may revoke: undefined for everyone's (an owner), else its own id. */
function tokenHolder(principal: Principal): string | undefined {
  return principal.user.role === 'owner' ? undefined : principal.user.id;
}
