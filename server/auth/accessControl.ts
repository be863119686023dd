import { ErrorCode, GatewayError, isGatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import { parseAuthorization } from './authorizationHeader.js';
import type { BasicCredentials } from './credentials.js';
import type { LoginThrottle } from './loginThrottle.js';
import { type Scope, Scopes } from './scopes.js';
import { TokenRejectedError, type TokenService } from './tokenService.js';

/**
 * Who is calling and what they may do (spec: Authentication). Basic holds every scope; a Bearer
 * access token holds its token's scopes; `all:any` holds every scope. Credentials are read from
 * the Authorization header only, never from the query string (DESIGN §5): URLs end up in logs.
 */
export interface Principal {
  kind: 'basic' | 'bearer';
  scopes: ReadonlySet<Scope>;
  /** The Bearer token's jti. */
  tokenId?: string;
}

export interface AccessControl {
  /** Throws GatewayError Unauthorized / TooManyAttempts. */
  authenticate(
    request: { authorization?: string; ip: string },
    expect: 'access' | 'refresh',
  ): Promise<Principal>;
  /** Throws GatewayError Forbidden unless the principal holds the scope. */
  authorize(principal: Principal, scope: Scope): void;
}

export interface AccessControlDependencies {
  credentials: BasicCredentials;
  tokens: TokenService;
  throttle: LoginThrottle;
  logger: Logger;
}

const everyScope: ReadonlySet<Scope> = new Set(Scopes.filter((scope) => scope !== 'tokens:refresh'));

export function holdsScope(principal: Principal, scope: Scope): boolean {
  return principal.scopes.has(scope) || (principal.scopes.has('all:any') && scope !== 'tokens:refresh');
}

export function createAccessControl(deps: AccessControlDependencies): AccessControl {
  const logger = deps.logger.child('auth');
  const { throttle } = deps;

  const refuse = (ip: string, reason: string, counts: boolean): never => {
    if (counts) throttle.recordFailure(ip);
    logger.debug('refused credentials', { ip, reason });
    throw new GatewayError(ErrorCode.Unauthorized, reason);
  };

  return {
    async authenticate({ authorization, ip }, expect) {
      // Not a failed login: clients first call without credentials to learn the scheme.
      if (authorization === undefined || authorization.trim() === '') {
        throw new GatewayError(ErrorCode.Unauthorized, 'credentials are required');
      }
      throttle.check(ip);
      const parsed = parseAuthorization(authorization);
      if (parsed.scheme === 'invalid') return refuse(ip, parsed.reason, true);
      if (parsed.scheme === 'basic') {
        if (expect === 'refresh') return refuse(ip, 'a Bearer refresh token is required here', false);
        if (!(await deps.credentials.verify(parsed.username, parsed.password))) {
          return refuse(ip, 'wrong user name or password', true);
        }
        throttle.recordSuccess(ip);
        return { kind: 'basic', scopes: everyScope };
      }
      try {
        const token = await deps.tokens.verify(parsed.token, expect);
        throttle.recordSuccess(ip);
        return { kind: 'bearer', scopes: token.scopes, tokenId: token.jti };
      } catch (error) {
        if (!isGatewayError(error, ErrorCode.Unauthorized)) throw error;
        // Expired, revoked or misused tokens were once genuine: a client holding many of them
        // after expiry must still be able to reach /auth/token/refresh. Forgeries count.
        const guessing =
          error instanceof TokenRejectedError && ['malformed', 'bad-signature'].includes(error.reason);
        return refuse(ip, error.message, guessing);
      }
    },

    authorize(principal, scope) {
      if (holdsScope(principal, scope)) return;
      throw new GatewayError(ErrorCode.Forbidden, `this token lacks the scope "${scope}"`);
    },
  };
}
