import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../clock/clock.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';
import type { Logger } from '../logging/logger.js';
import type { Document } from '../store/documentStore.js';
import { openRevocationList, type RevocationDocumentData } from './revocationList.js';
import { isScope, type Scope } from './scopes.js';

/**
 * JWT access and refresh tokens (spec: Authentication, token lifecycle; DESIGN §2 Tokens).
 * Tokens are stateless HS256 JWTs signed with a per-install random secret; the only server
 * state is the revocation list.
 *
 * A refresh token's `scopes` claim holds only `tokens:refresh`; what it may re-grant travels in
 * `grant_scopes`/`grant_ttl`, and `ati` links it to its access token, so revoking the access
 * token's jti refuses the refresh token too. Both carry `fam`, a random id shared by every
 * pair of one rotation chain: a rotated refresh token presented again revokes its whole family
 * (RFC 9700 §4.14.2: the thief and the owner cannot be told apart, so neither keeps access).
 */
export type TokenUse = 'access' | 'refresh';

export interface TokenDocumentData extends RevocationDocumentData {
  /** HS256 key, base64url, 32 random bytes; created on first start. */
  secret?: string;
}

export interface TokenPair {
  /** The access token's jti: the id DELETE /auth/token/{jti} takes. */
  id: string;
  accessToken: string;
  refreshToken: string;
  /** Access token expiry, ms since epoch. */
  expiresAt: number;
}

export interface VerifiedToken {
  jti: string;
  use: TokenUse;
  scopes: ReadonlySet<Scope>;
  expiresAt: number;
}

export type TokenRejection = 'malformed' | 'bad-signature' | 'expired' | 'revoked' | 'wrong-use';

/** 401 with the reason kept apart (expired, revoked, forged…), for the access log. */
export class TokenRejectedError extends GatewayError {
  constructor(
    readonly reason: TokenRejection,
    message: string,
  ) {
    super(ErrorCode.Unauthorized, message);
  }
}

export interface TokenService {
  /**
   * Validates the requested scopes and ttl (400 naming `scopes`/`ttl`) and signs a new pair.
   * With `notAfter` (ms; the expiry of the token that asks), neither token of the pair, nor any
   * pair its refresh token is exchanged for, outlives that instant: a ttl reaching beyond it is
   * refused (403 naming `ttl`), the default ttl is shortened to fit.
   */
  issue(scopes: readonly string[], ttlSeconds?: number, notAfter?: number): Promise<TokenPair>;
  /** A pair holding every scope with the short session lifetime, for the UI after it logs in. */
  issueSession(): Promise<TokenPair>;
  /** Throws TokenRejectedError (Unauthorized) unless the token is valid for `expect`. */
  verify(jwt: string, expect: TokenUse): Promise<VerifiedToken>;
  /**
   * Rotates: revokes the presented refresh token and its access token, returns a new pair.
   * A refresh token already used or revoked is refused, and its family revoked.
   */
  refresh(refreshJwt: string): Promise<TokenPair>;
  /** Revokes a token id: an access token's jti also refuses its refresh token. Idempotent. */
  revoke(jti: string): Promise<void>;
  /**
   * Called after any revocation (revoke, a refresh's rotation, a replayed refresh token's
   * family): whoever holds a verified token for longer than one request verifies it again.
   */
  onRevoke(listener: () => void): () => void;
}

export interface TokenServiceOptions {
  document: Pick<Document<TokenDocumentData>, 'data' | 'update'>;
  clock: Clock;
  logger: Logger;
  issuer?: string;
  /** Access token lifetime when the request names none (or 0). Default 1 h. */
  accessTtlSeconds?: number;
  /** Longest access token lifetime a request may ask for. Default 720 h. */
  maxAccessTtlSeconds?: number;
  /** Refresh token lifetime (spec: Limits, 720 h default). */
  refreshTtlSeconds?: number;
  /** UI session token lifetime. Default 15 min. */
  sessionTtlSeconds?: number;
}

export const tokenDefaults = {
  issuer: 'desktop-sms-gateway',
  accessTtlSeconds: 3_600,
  maxAccessTtlSeconds: 720 * 3_600,
  refreshTtlSeconds: 720 * 3_600,
  sessionTtlSeconds: 15 * 60,
} as const;

/** 16 random bytes as base64url: the only jti shape this gateway issues. */
const jtiPattern = /^[A-Za-z0-9_-]{22}$/;

interface AccessClaims {
  scopes: string[];
  token_use: 'access';
  fam: string;
}

interface RefreshClaims {
  scopes: ['tokens:refresh'];
  token_use: 'refresh';
  fam: string;
  ati: string;
  grant_scopes: string[];
  grant_ttl: number;
  /** Seconds since the epoch no pair made from this refresh token may outlive. */
  not_after?: number;
}

/** A token whose signature, lifetime and shape are good; whether it is revoked is separate. */
interface CheckedToken {
  jti: string;
  family: string;
  /** A refresh token's access token. */
  linked?: string;
  scopes: Scope[];
  expiresAt: number;
  grantScopes: string[];
  grantTtl?: number;
  /** Seconds since the epoch: the cap a Bearer-minted pair carries through its rotations. */
  notAfter?: number;
}

export async function openTokenService(options: TokenServiceOptions): Promise<TokenService> {
  const { document, clock } = options;
  const logger = options.logger.child('tokens');
  const issuer = options.issuer ?? tokenDefaults.issuer;
  const accessTtl = options.accessTtlSeconds ?? tokenDefaults.accessTtlSeconds;
  const maxAccessTtl = options.maxAccessTtlSeconds ?? tokenDefaults.maxAccessTtlSeconds;
  const refreshTtl = options.refreshTtlSeconds ?? tokenDefaults.refreshTtlSeconds;
  const sessionTtl = options.sessionTtlSeconds ?? tokenDefaults.sessionTtlSeconds;
  // Any token carrying an id was issued before now, so it expires within the longest lifetime
  // handed out: a revocation may be forgotten after that.
  const revocationHorizon = () => clock.now() + Math.max(refreshTtl, maxAccessTtl) * 1000;

  const key = await signingKey(document, logger);
  const revocations = openRevocationList(document, clock);
  const revokeListeners = new Set<() => void>();
  const revokeIds = async (ids: string[], keepUntil: number) => {
    await revocations.add(ids, keepUntil);
    for (const listener of revokeListeners) listener();
  };

  const checkScopes = (requested: readonly string[]): Scope[] => {
    const fail = (why: string): never => {
      throw new GatewayError(ErrorCode.ValidationFailed, `scopes: ${why}`, { field: 'scopes' });
    };
    if (requested.length === 0) fail('at least one scope is required');
    for (const scope of requested) {
      if (!isScope(scope)) fail(`unknown scope "${scope}"`);
      if (scope === 'tokens:refresh')
        fail('"tokens:refresh" is given to refresh tokens and cannot be requested');
    }
    return [...new Set(requested as Scope[])];
  };

  const checkTtl = (ttlSeconds: number | undefined): number => {
    // Clients built on Go structs send 0 for "not set": treat it as the server default.
    if (ttlSeconds === undefined || ttlSeconds === 0) return accessTtl;
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > maxAccessTtl) {
      throw new GatewayError(
        ErrorCode.ValidationFailed,
        `ttl: must be an integer from 1 to ${maxAccessTtl} seconds`,
        {
          field: 'ttl',
        },
      );
    }
    return ttlSeconds;
  };

  const sign = (claims: AccessClaims | RefreshClaims, jti: string, issuedAt: number, expiresAt: number) =>
    new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setJti(jti)
      .setIssuer(issuer)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key);

  /** `notAfter` in seconds since the epoch: the latest either token may expire. */
  const signPair = async (
    scopes: Scope[],
    ttl: number,
    family?: string,
    notAfter?: number,
  ): Promise<TokenPair> => {
    const issuedAt = Math.floor(clock.now() / 1000);
    const accessJti = newJti();
    const fam = family ?? newJti();
    const cap = notAfter ?? Number.POSITIVE_INFINITY;
    const accessExpiry = Math.min(issuedAt + ttl, cap);
    const accessToken = await sign({ scopes, token_use: 'access', fam }, accessJti, issuedAt, accessExpiry);
    const refreshToken = await sign(
      {
        scopes: ['tokens:refresh'],
        token_use: 'refresh',
        fam,
        ati: accessJti,
        grant_scopes: scopes,
        grant_ttl: ttl,
        ...(notAfter === undefined ? {} : { not_after: notAfter }),
      },
      newJti(),
      issuedAt,
      Math.min(issuedAt + refreshTtl, cap),
    );
    return { id: accessJti, accessToken, refreshToken, expiresAt: accessExpiry * 1000 };
  };

  const verifySignature = async (jwt: string) => {
    try {
      const { payload } = await jwtVerify(jwt, key, {
        algorithms: ['HS256'],
        issuer,
        currentDate: new Date(clock.now()),
        requiredClaims: ['jti', 'iat', 'exp', 'scopes', 'token_use', 'fam'],
      });
      return payload;
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new TokenRejectedError('expired', 'token expired');
      if (error instanceof errors.JWSSignatureVerificationFailed) {
        throw new TokenRejectedError('bad-signature', 'token signature is not valid');
      }
      throw new TokenRejectedError('malformed', 'token is not a valid gateway JWT');
    }
  };

  const checkToken = async (jwt: string, expect: TokenUse): Promise<CheckedToken> => {
    const payload = await verifySignature(jwt);
    if (payload.token_use !== expect) {
      throw new TokenRejectedError(
        'wrong-use',
        expect === 'access' ? 'an access token is required here' : 'a refresh token is required here',
      );
    }
    const scopes = Array.isArray(payload.scopes) ? payload.scopes : [];
    if (!scopes.every((scope) => typeof scope === 'string' && isScope(scope))) {
      throw new TokenRejectedError('malformed', 'token carries an unknown scope');
    }
    const jti = String(payload.jti);
    const family = String(payload.fam);
    const linked = typeof payload.ati === 'string' ? payload.ati : undefined;
    return {
      jti,
      family,
      ...(linked === undefined ? {} : { linked }),
      scopes: scopes as Scope[],
      expiresAt: (payload.exp ?? 0) * 1000,
      grantScopes: Array.isArray(payload.grant_scopes) ? payload.grant_scopes.map(String) : [],
      ...(typeof payload.grant_ttl === 'number' ? { grantTtl: payload.grant_ttl } : {}),
      ...(typeof payload.not_after === 'number' ? { notAfter: payload.not_after } : {}),
    };
  };

  const isRevoked = (token: CheckedToken) =>
    [token.jti, token.family, token.linked].some((id) => id !== undefined && revocations.has(id));

  /** Always throws; a revoked refresh token presented again takes its family along. */
  const refuseRevoked = async (token: CheckedToken, use: TokenUse): Promise<never> => {
    if (use === 'refresh' && !revocations.has(token.family)) {
      logger.warn('a used or revoked refresh token was presented again: revoking its family', {
        family: token.family,
      });
      await revokeIds([token.family], revocationHorizon());
    }
    throw new TokenRejectedError('revoked', 'token has been revoked');
  };

  return {
    async issue(scopes, ttlSeconds, notAfter) {
      const granted = checkScopes(scopes);
      const ttl = checkTtl(ttlSeconds);
      const cap = notAfter === undefined ? undefined : Math.floor(notAfter / 1000);
      const left = cap === undefined ? Number.POSITIVE_INFINITY : cap - Math.floor(clock.now() / 1000);
      if (ttlSeconds !== undefined && ttlSeconds !== 0 && ttl > left) {
        throw new GatewayError(
          ErrorCode.Forbidden,
          `ttl: at most ${Math.max(left, 0)} seconds — a token cannot outlive the token that asks for it; ask with the password (Basic) for a longer one`,
          { field: 'ttl' },
        );
      }
      const pair = await signPair(granted, ttl, undefined, cap);
      logger.info('issued a token', { jti: pair.id, scopes: [...scopes] });
      return pair;
    },

    issueSession() {
      return signPair(['all:any'], sessionTtl);
    },

    async verify(jwt, expect) {
      const token = await checkToken(jwt, expect);
      if (isRevoked(token)) await refuseRevoked(token, expect);
      return { jti: token.jti, use: expect, scopes: new Set(token.scopes), expiresAt: token.expiresAt };
    },

    async refresh(refreshJwt) {
      const token = await checkToken(refreshJwt, 'refresh');
      if (isRevoked(token)) await refuseRevoked(token, 'refresh');
      // No await between the check above and this mark: a replay racing this refresh finds the
      // token revoked. The access token it replaces goes too (spec: "revokes the old one").
      await revokeIds(token.linked === undefined ? [token.jti] : [token.jti, token.linked], token.expiresAt);
      const pair = await signPair(
        checkScopes(token.grantScopes),
        Math.min(token.grantTtl ?? accessTtl, maxAccessTtl),
        token.family,
        token.notAfter,
      );
      logger.info('rotated a token pair', { family: token.family, jti: pair.id });
      return pair;
    },

    async revoke(jti) {
      if (!jtiPattern.test(jti)) {
        throw new GatewayError(ErrorCode.ValidationFailed, 'jti: not a token id issued by this gateway', {
          field: 'jti',
        });
      }
      await revokeIds([jti], revocationHorizon());
      logger.info('revoked a token', { jti });
    },

    onRevoke(listener) {
      revokeListeners.add(listener);
      return () => revokeListeners.delete(listener);
    },
  };
}

/** The per-install HS256 key, created on first start. */
async function signingKey(document: TokenServiceOptions['document'], logger: Logger): Promise<Uint8Array> {
  if (!document.data.secret) {
    const secret = randomBytes(32).toString('base64url');
    await document.update((data) => {
      data.secret = secret;
    });
    logger.info('generated a new token signing secret');
  }
  const key = new Uint8Array(Buffer.from(document.data.secret ?? '', 'base64url'));
  if (key.length < 32)
    throw new GatewayError(ErrorCode.StoreCorrupt, 'token signing secret is shorter than 256 bits');
  return key;
}

function newJti(): string {
  return randomBytes(16).toString('base64url');
}
