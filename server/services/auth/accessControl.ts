import { createHash } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import { type Scope, Scopes } from '../../contract/domain/scopes.js';
import { roleAllows } from '../../contract/domain/staffRoles.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { AppDirectory } from './appDirectory.js';
import type { AttemptPacer } from './attemptPacer.js';
import { parseAuthorization } from './authorizationHeader.js';
import type { BasicCredentials, PasswordCheck } from './credentials.js';
import type { LoginThrottle } from './loginThrottle.js';
import type { SmppLogins } from './smppLogins.js';
import { ownerId, type StaffDirectory, type StaffIdentity } from './staffDirectory.js';
import { TokenRejectedError, type TokenService } from './tokenService.js';

/**
 * Who is calling and what they may do (spec: Authentication). Basic holds every scope; a Bearer
 * access token holds its token's scopes; `all:any` holds every scope. Either is limited by the
 * role of the person it belongs to (domain/staffRoles.ts). Credentials are read from the
 * Authorization header only, never from the query string (docs/decisions.md#security-defaults): URLs end up in logs.
 */
export interface Principal {
  kind: 'basic' | 'bearer';
  scopes: ReadonlySet<Scope>;
  /** The person the login or token belongs to, as they are at this request. */
  user: StaffIdentity;
  /** The Bearer token's jti. */
  tokenId?: string;
  /** The id its token family is listed by (GET /gateway/v1/tokens). */
  tokenFamily?: string;
  /** When the Bearer token expires (ms since the epoch). */
  expiresAt?: number;
}

/** What a request says about who sends it. */
export interface CallerRequest {
  authorization?: string;
  ip: string;
}

export interface AccessControl {
  /** Throws GatewayError Unauthorized / TooManyAttempts. */
  authenticate(request: CallerRequest, expect: 'access' | 'refresh'): Promise<Principal>;
  /**
   * A login from a protocol without an Authorization header (SMTP AUTH, an SMPP bind): over
   * SMPP, the SMPP login of that system_id when there is one (auth/smppLogins.ts); otherwise a
   * person's or app's login, or an access token given as the password under any name.
   */
  authenticateLogin(
    login: { username: string; password: string },
    caller: CallerRequest,
    via: 'smtp' | 'smpp',
  ): Promise<Principal>;
  /** Throws GatewayError Forbidden unless the principal holds the scope. */
  authorize(principal: Principal, scope: Scope): void;
  /**
   * Checks the current password of the login `name` a caller typed to confirm a change, as a
   * login attempt of that caller (throttled, counted and locked out alike). A wrong one is Forbidden naming `field`, not
   * Unauthorized: the caller's own credentials are good, and a 401 would end its session.
   */
  confirmPassword(caller: CallerRequest, name: string, password: string, field: string): Promise<void>;
  /**
   * For what outlives one request (the event stream): calls `end` once, with the reason, when
   * the credentials that made `principal` stop being valid — the token expires or is revoked, or
   * the Basic login changes. Returns a function that stops watching.
   */
  watch(principal: Principal, authorization: string, end: (reason: string) => void): () => void;
}

export interface AccessControlDependencies {
  /** The owner's login: what a name nobody has is checked against. */
  credentials: BasicCredentials;
  /** Everyone's logins, the owner's included. */
  staff: StaffDirectory;
  /** The apps' own logins (auth/appDirectory.ts). */
  apps: Pick<AppDirectory, 'login' | 'identity' | 'onChange'>;
  /** The logins that fit an SMPP bind (auth/smppLogins.ts). */
  smppLogins: Pick<SmppLogins, 'login'>;
  tokens: TokenService;
  throttle: LoginThrottle;
  /** Spaces the checks of a user name that has had too many wrong passwords. */
  pacer: AttemptPacer;
  clock: Clock;
  logger: Logger;
}

const everyScope: ReadonlySet<Scope> = new Set(Scopes.filter((scope) => scope !== 'tokens:refresh'));

/** A JWT's three base64url parts (RFC 7519 §3): such a password is an API token, not a login's. */
const tokenShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export function holdsScope(principal: Principal, scope: Scope): boolean {
  const held = principal.scopes.has(scope) || (principal.scopes.has('all:any') && scope !== 'tokens:refresh');
  // A refresh token's own scope is no person's to grant or withhold.
  return held && (scope === 'tokens:refresh' || roleAllows(principal.user.role, scope));
}

export function createAccessControl(deps: AccessControlDependencies): AccessControl {
  const logger = deps.logger.child('auth');
  const { throttle } = deps;

  const refuse = (reason: string): never => {
    logger.debug('refused credentials', { reason });
    throw new GatewayError(ErrorCode.Unauthorized, reason);
  };

  // A pair waiting for its paced turn (keyed by a hash of the pair), so that the same pair sent
  // on other connections waits for that one answer instead of each taking a turn.
  const pacedAttempts = new Map<string, Promise<Principal>>();

  /**
   * A pair that verified before passes at once (a client that logged in keeps working while
   * someone guesses). Any other attempt is counted against its user name before the slow hash,
   * and the count taken back when the password was right.
   *
   * Nothing is ever locked out: on loopback every local program is one address, and anything a
   * client says of itself a guesser can say too, so a lock-out of a client or a name would lock
   * the rightful user out with the guesser. Once a name has had too many wrong passwords, its
   * checks are paced instead — one a second, whoever sends them — so that guessing is slow and
   * a right password is still answered, at its turn.
   */
  const authenticateBasic = async (
    username: string,
    password: string,
    caller: CallerRequest,
    // A name nobody has is checked against the owner's login, which refuses it after the same
    // hashing: the time taken tells no one which names exist.
    login: { identity: StaffIdentity | undefined; check: PasswordCheck } = deps.staff.login(username) ??
      deps.apps.login(username) ?? { identity: undefined, check: deps.credentials },
  ): Promise<Principal> => {
    if (login.identity && login.check.recognises(username, password)) {
      return { kind: 'basic', scopes: everyScope, user: login.identity };
    }
    // Cut so that 10,000 tracked names of 16 kB headers cannot hold 160 MB; a shared prefix only
    // makes the limit stricter.
    const user = `user:${username.slice(0, 128)}`;
    if (!throttle.locked(user)) return checkPassword(username, password, login.check, login.identity, user);
    const pair = createHash('sha256').update(`${username}\0${password}`).digest('base64');
    const earlier = pacedAttempts.get(pair);
    if (earlier) return earlier;
    logger.debug('paced login check', { caller: caller.ip });
    const attempt = deps.pacer
      .turn(user)
      .then(() => checkPassword(username, password, login.check, login.identity, user));
    pacedAttempts.set(pair, attempt);
    const forget = () => pacedAttempts.delete(pair);
    attempt.then(forget, forget);
    return attempt;
  };

  const checkPassword = async (
    username: string,
    password: string,
    check: PasswordCheck,
    identity: StaffIdentity | undefined,
    user: string,
  ): Promise<Principal> => {
    const answer = (matches: boolean): Principal =>
      matches && identity
        ? { kind: 'basic', scopes: everyScope, user: identity }
        : refuse('wrong user name or password');
    // The same pair already being checked is the same guess: it waits for that answer uncounted.
    const underway = check.checking(username, password);
    if (underway) return answer(await underway);
    throttle.recordFailure(user);
    let matches: boolean;
    try {
      matches = await check.verify(username, password);
    } catch (error) {
      // Refused before hashing (too many checks waiting): nothing was tried.
      throttle.withdrawFailure(user);
      throw error;
    }
    if (!matches) return refuse('wrong user name or password');
    throttle.withdrawFailure(user);
    return answer(matches);
  };

  const authenticate: AccessControl['authenticate'] = async (caller, expect) => {
    const { authorization } = caller;
    // Not a failed login: clients first call without credentials to learn the scheme.
    if (authorization === undefined || authorization.trim() === '') {
      throw new GatewayError(ErrorCode.Unauthorized, 'credentials are required');
    }
    const parsed = parseAuthorization(authorization);
    // A header that is no credentials at all guesses nothing: refused, not counted.
    if (parsed.scheme === 'invalid') return refuse(parsed.reason);
    if (parsed.scheme === 'basic') {
      if (expect === 'refresh') return refuse('a Bearer refresh token is required here');
      return authenticateBasic(parsed.username, parsed.password, caller);
    }
    // Tokens are HMAC-signed: they cannot be guessed, so they are neither throttled nor counted,
    // and a valid token works while its address is locked out for wrong passwords.
    try {
      const token = await deps.tokens.verify(parsed.token, expect);
      const holder = token.user ?? ownerId;
      const user = deps.staff.identity(holder) ?? deps.apps.identity(holder);
      if (!user) return refuse('the person or app this token was issued to has been removed');
      return {
        kind: 'bearer',
        scopes: token.scopes,
        user,
        tokenId: token.jti,
        tokenFamily: token.family,
        expiresAt: token.expiresAt,
      };
    } catch (error) {
      if (!isGatewayError(error, ErrorCode.Unauthorized)) throw error;
      if (error instanceof TokenRejectedError) logger.debug('token refused', { reason: error.reason });
      return refuse(error.message);
    }
  };

  return {
    authenticate,

    authenticateLogin({ username, password }, caller, via) {
      const smppLogin = via === 'smpp' ? deps.smppLogins.login(username) : undefined;
      if (smppLogin) return authenticateBasic(username, password, caller, smppLogin);
      if (tokenShape.test(password))
        return authenticate({ ...caller, authorization: `Bearer ${password}` }, 'access');
      return authenticateBasic(username, password, caller);
    },

    async confirmPassword(caller, name, password, field) {
      try {
        await authenticateBasic(name, password, caller);
      } catch (error) {
        if (!isGatewayError(error, ErrorCode.Unauthorized)) throw error;
        throw new GatewayError(ErrorCode.Forbidden, `${field}: not the current password`, { field });
      }
    },

    authorize(principal, scope) {
      if (holdsScope(principal, scope)) return;
      if (!roleAllows(principal.user.role, scope)) {
        throw new GatewayError(
          ErrorCode.Forbidden,
          `the role "${principal.user.role}" of ${principal.user.name} does not allow "${scope}"`,
        );
      }
      throw new GatewayError(ErrorCode.Forbidden, `this token lacks the scope "${scope}"`);
    },

    watch(principal, authorization, end) {
      let ended = false;
      const stops: Array<() => void> = [];
      const stopWatching = () => {
        ended = true;
        for (const stop of stops.splice(0)) stop();
      };
      const finish = (reason: string) => {
        if (ended) return;
        stopWatching();
        end(reason);
      };
      const person = principal.user.id;
      const changed = (id: string) => {
        if (id === person) finish('the login changed');
      };
      stops.push(deps.staff.onChange(changed), deps.apps.onChange(changed));
      if (principal.kind === 'basic') return stopWatching;
      const parsed = parseAuthorization(authorization);
      const jwt = parsed.scheme === 'bearer' ? parsed.token : '';
      const expiry = deps.clock.setTimer(
        () => finish('the token expired'),
        Math.max(0, (principal.expiresAt ?? 0) - deps.clock.now()),
      );
      stops.push(() => expiry.cancel());
      stops.push(
        deps.tokens.onRevoke(() => {
          deps.tokens.verify(jwt, 'access').catch(() => finish('the token was revoked'));
        }),
      );
      return stopWatching;
    },
  };
}
