import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../clock/clock.js';
import { isScope, type Scope } from '../../contract/domain/scopes.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';
import type { Document } from '../../store/documentStore.js';
import { openLegacyTokens } from './legacyTokens.js';
import type { StoredFamily, TokenDocumentData, TokenIssuer } from './tokenDocument.js';
import { openTokenFamilies } from './tokenFamilies.js';

/**
 * JWT access and refresh tokens (spec: Authentication, token lifecycle;
 * docs/decisions.md#tokens-and-scopes): HS256 JWTs signed with a per-install random secret.
 *
 * Each issued pair starts a family (`tokenFamilies.ts`), and every pair rotated from it belongs
 * to it: a token carries its family id (`fam`) and the generation it was signed in (`gen`), and
 * only the family's current generation is valid. So revoking any id of a family ends the pair,
 * its refresh token and every rotation; a family ends at the lifetime its refresh
 * token had at issue, however often it rotates; and a rotated refresh token presented again
 * ends its family (RFC 9700 §4.14.2: the thief and the owner cannot be told apart, so neither
 * keeps access). A token id is the family id followed by the generation and the token's use,
 * so the id of any token names its family.
 */
export type TokenUse = 'access' | 'refresh';

export type { TokenDocumentData, TokenIssuer } from './tokenDocument.js';

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
  /** The id the family's first pair was given: what the token list names it by. */
  family: string;
  use: TokenUse;
  scopes: ReadonlySet<Scope>;
  expiresAt: number;
  /** The staff user it was issued to; absent: the owner. */
  user?: string;
}

/** A live family as GET /gateway/v1/tokens lists it, by the id its first pair was given. */
export interface IssuedTokens {
  id: string;
  scopes: Scope[];
  issuedBy: TokenIssuer;
  issuedAt: number;
  /** No token of the family is valid after this (ms). */
  expiresAt: number;
  refreshedAt?: number;
  lastUsedAt?: number;
  /** The staff user it was issued to; absent: the owner. */
  user?: string;
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
   * refused (403 naming `ttl`), the default ttl is shortened to fit. `user` is the staff user
   * it is issued to (absent: the owner); their role limits it on every use.
   */
  issue(scopes: readonly string[], ttlSeconds?: number, notAfter?: number, user?: string): Promise<TokenPair>;
  /** A pair holding every scope with the short session lifetime, for the UI after it logs in. */
  issueSession(): Promise<TokenPair>;
  /** Throws TokenRejectedError (Unauthorized) unless the token is valid for `expect`. */
  verify(jwt: string, expect: TokenUse): Promise<VerifiedToken>;
  /**
   * Rotates: the presented pair stops being valid, a new pair of the same family is returned.
   * A refresh token already used or revoked is refused, and its family revoked.
   */
  refresh(refreshJwt: string): Promise<TokenPair>;
  /**
   * Revokes the family of a token id (400 naming `jti` for an id of no shape we issue). Idempotent.
   * With `user`, only a family issued to that staff user or app is revoked: any other id is left
   * as it is, as an unknown one would be.
   */
  revoke(jti: string, user?: string): Promise<void>;
  /** Revokes every token issued so far (a changed login, "revoke all"). */
  revokeAll(): Promise<void>;
  /** Revokes every token issued to one staff user (removed, or given a new password). */
  revokeUser(user: string): Promise<void>;
  /** The live families, newest first. */
  list(): IssuedTokens[];
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
  /** Refresh token lifetime, and so a family's (spec: Limits, 720 h default). */
  refreshTtlSeconds?: number;
  /** UI session token lifetime. Default 15 min. */
  sessionTtlSeconds?: number;
  /** Most live families; beyond, the one used least recently is forgotten. Default 1,000. */
  maxFamilies?: number;
  /** Most live families of one person or app; beyond, their own used least recently is forgotten. Default 100. */
  maxFamiliesPerHolder?: number;
}

export const tokenDefaults = {
  issuer: 'desktop-sms-gateway',
  accessTtlSeconds: 3_600,
  maxAccessTtlSeconds: 720 * 3_600,
  refreshTtlSeconds: 720 * 3_600,
  sessionTtlSeconds: 15 * 60,
  maxFamilies: 1_000,
  maxFamiliesPerHolder: 100,
} as const;

/** 16 bytes as base64url: the only jti shape this gateway issues. */
const jtiPattern = /^[A-Za-z0-9_-]{22}$/;
/** 12 random bytes as base64url: 16 characters, the first of every id of the family. */
const familyIdLength = 16;

/** The jti of a family's token: family bytes, then the generation with the refresh bit on top. */
function tokenId(family: string, generation: number, use: TokenUse): string {
  const word = Buffer.alloc(4);
  word.writeUInt32BE(((generation & 0x7fffffff) | (use === 'refresh' ? 0x80000000 : 0)) >>> 0);
  return Buffer.concat([Buffer.from(family, 'base64url'), word]).toString('base64url');
}

interface FamilyClaims {
  scopes: string[];
  token_use: TokenUse;
  fam: string;
  gen: number;
}

/** What a token signed before families existed carries beyond the common claims. */
interface LegacyClaims {
  ati?: string;
  grant_scopes: string[];
  grant_ttl?: number;
  not_after?: number;
}

/** A token whose signature, lifetime and shape are good; whether it is revoked is separate. */
interface CheckedToken {
  jti: string;
  family: string;
  /** Absent on a token signed before families existed. */
  generation?: number;
  scopes: Scope[];
  expiresAt: number;
  legacy: LegacyClaims;
}

export async function openTokenService(options: TokenServiceOptions): Promise<TokenService> {
  const { document, clock } = options;
  const logger = options.logger.child('tokens');
  const issuer = options.issuer ?? tokenDefaults.issuer;
  const accessTtl = options.accessTtlSeconds ?? tokenDefaults.accessTtlSeconds;
  const maxAccessTtl = options.maxAccessTtlSeconds ?? tokenDefaults.maxAccessTtlSeconds;
  const refreshTtl = options.refreshTtlSeconds ?? tokenDefaults.refreshTtlSeconds;
  const sessionTtl = options.sessionTtlSeconds ?? tokenDefaults.sessionTtlSeconds;

  const key = await signingKey(document, logger);
  const revokeListeners = new Set<() => void>();
  const revoked = () => {
    for (const listener of revokeListeners) listener();
  };
  const families = openTokenFamilies({
    document,
    clock,
    maxFamilies: options.maxFamilies ?? tokenDefaults.maxFamilies,
    maxFamiliesPerHolder: options.maxFamiliesPerHolder ?? tokenDefaults.maxFamiliesPerHolder,
    onForget: (family) => {
      logger.warn('forgot the token family used least recently: too many live tokens', {
        family: family.id,
      });
      revoked();
    },
  });
  const legacy = await openLegacyTokens({
    document,
    clock,
    longestLifetimeMs: Math.max(refreshTtl, maxAccessTtl) * 1000,
  });

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

  const sign = (claims: FamilyClaims, jti: string, issuedAt: number, expiresAt: number) =>
    new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setJti(jti)
      .setIssuer(issuer)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key);

  /** The family's current pair: the access token ends after its ttl or with the family. */
  const signPair = async (family: StoredFamily): Promise<TokenPair> => {
    const issuedAt = Math.floor(clock.now() / 1000);
    const end = Math.floor(family.expiresAt / 1000);
    const { id: fam, generation: gen } = family;
    const accessJti = tokenId(fam, gen, 'access');
    const accessExpiry = Math.min(issuedAt + family.ttl, end);
    const accessToken = await sign(
      { scopes: family.scopes, token_use: 'access', fam, gen },
      accessJti,
      issuedAt,
      accessExpiry,
    );
    const refreshToken = await sign(
      { scopes: ['tokens:refresh'], token_use: 'refresh', fam, gen },
      tokenId(fam, gen, 'refresh'),
      issuedAt,
      end,
    );
    return { id: accessJti, accessToken, refreshToken, expiresAt: accessExpiry * 1000 };
  };

  /** Starts a family ending `lifetime` seconds from now, or at `notAfter` (s) if sooner. */
  const startFamily = async (
    scopes: Scope[],
    ttl: number,
    issuedBy: TokenIssuer,
    lifetime: number,
    notAfter = Number.POSITIVE_INFINITY,
    user?: string,
  ): Promise<TokenPair> => {
    const now = clock.now();
    const family: StoredFamily = {
      id: randomBytes(12).toString('base64url'),
      scopes,
      ttl,
      issuedBy,
      issuedAt: now,
      expiresAt: Math.min(Math.floor(now / 1000) + lifetime, notAfter) * 1000,
      generation: 0,
      ...(user === undefined ? {} : { user }),
    };
    const pair = await signPair(family);
    await families.add(family);
    return pair;
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
    return {
      jti: String(payload.jti),
      family: String(payload.fam),
      ...(typeof payload.gen === 'number' ? { generation: payload.gen } : {}),
      scopes: scopes as Scope[],
      expiresAt: (payload.exp ?? 0) * 1000,
      legacy: {
        ...(typeof payload.ati === 'string' ? { ati: payload.ati } : {}),
        grant_scopes: Array.isArray(payload.grant_scopes) ? payload.grant_scopes.map(String) : [],
        ...(typeof payload.grant_ttl === 'number' ? { grant_ttl: payload.grant_ttl } : {}),
        ...(typeof payload.not_after === 'number' ? { not_after: payload.not_after } : {}),
      },
    };
  };

  const refuseRevoked = (): never => {
    throw new TokenRejectedError('revoked', 'token has been revoked');
  };

  /**
   * The token's live family if the token is of its current generation. A refresh token of an
   * earlier one was used already: whoever presents it again may be a thief, so the family ends.
   * Checks and marks with no await in between (see tokenFamilies.ts).
   */
  const currentFamily = (token: CheckedToken, use: TokenUse): StoredFamily => {
    const family = families.get(token.family);
    if (!family) return refuseRevoked();
    if (token.generation === family.generation) return family;
    if (use === 'refresh') {
      logger.warn('a used refresh token was presented again: revoking its family', { family: family.id });
      void families
        .remove(family.id)
        .then(revoked, (error: unknown) =>
          logger.error('could not store the revocation of a token family', { error }),
        );
    }
    return refuseRevoked();
  };

  /** A token signed before families existed: honoured until it expires, unless revoked. */
  const checkLegacy = (token: CheckedToken, use: TokenUse): void => {
    if (legacy.honours([token.jti, token.family, token.legacy.ati])) return;
    if (use === 'refresh') void legacy.revoke([token.family]).then(revoked);
    refuseRevoked();
  };

  return {
    async issue(scopes, ttlSeconds, notAfter, user) {
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
      const issuer = cap === undefined ? 'password' : 'token';
      const pair = await startFamily(granted, ttl, issuer, refreshTtl, cap, user);
      logger.info('issued a token', { jti: pair.id, scopes: [...scopes] });
      return pair;
    },

    issueSession() {
      return startFamily(['all:any'], sessionTtl, 'window', sessionTtl);
    },

    async verify(jwt, expect) {
      const token = await checkToken(jwt, expect);
      let user: string | undefined;
      if (token.generation === undefined) checkLegacy(token, expect);
      else {
        const family = currentFamily(token, expect);
        families.touch(family);
        user = family.user;
      }
      return {
        jti: token.jti,
        family: token.generation === undefined ? token.family : tokenId(token.family, 0, 'access'),
        use: expect,
        scopes: new Set(token.scopes),
        expiresAt: token.expiresAt,
        ...(user === undefined ? {} : { user }),
      };
    },

    async refresh(refreshJwt) {
      const token = await checkToken(refreshJwt, 'refresh');
      if (token.generation === undefined) {
        checkLegacy(token, 'refresh');
        // Rotated into a family of its own, which ends when the legacy refresh token would have.
        const used = [token.jti, ...(token.legacy.ati === undefined ? [] : [token.legacy.ati])];
        const stored = legacy.revoke(used);
        const pair = await startFamily(
          checkScopes(token.legacy.grant_scopes),
          Math.min(token.legacy.grant_ttl ?? accessTtl, maxAccessTtl),
          token.legacy.not_after === undefined ? 'password' : 'token',
          Math.floor(token.expiresAt / 1000) - Math.floor(clock.now() / 1000),
          token.legacy.not_after,
        );
        await stored;
        revoked();
        return pair;
      }
      const family = currentFamily(token, 'refresh');
      // No await between the check above and this mark: a replay racing this refresh finds the
      // generation moved on. The access token it replaces goes too (spec: "revokes the old one").
      const stored = families.rotate(family);
      const pair = await signPair(family);
      await stored;
      revoked();
      logger.info('rotated a token pair', { family: family.id, jti: pair.id });
      return pair;
    },

    async revoke(jti, user) {
      if (!jtiPattern.test(jti)) {
        throw new GatewayError(ErrorCode.ValidationFailed, 'jti: not a token id issued by this gateway', {
          field: 'jti',
        });
      }
      const familyId = jti.slice(0, familyIdLength);
      if (user !== undefined) {
        if (families.get(familyId)?.user !== user) return;
        await families.remove(familyId);
      } else if (!(await families.remove(familyId))) {
        // Not a live family's: it may be a token signed before families existed (the owner's).
        await legacy.revoke([jti]);
      }
      revoked();
      logger.info('revoked a token family', { jti });
    },

    async revokeAll() {
      await Promise.all([families.clear(), legacy.end()]);
      revoked();
      logger.info('revoked every token');
    },

    async revokeUser(user) {
      const theirs = families.list().filter((family) => family.user === user);
      for (const family of theirs) await families.remove(family.id);
      if (theirs.length > 0) revoked();
      logger.info("revoked a staff user's tokens", { user, families: theirs.length });
    },

    list() {
      return families
        .list()
        .sort((a, b) => b.issuedAt - a.issuedAt)
        .map((family) => ({
          id: tokenId(family.id, 0, 'access'),
          scopes: family.scopes,
          issuedBy: family.issuedBy,
          issuedAt: family.issuedAt,
          expiresAt: family.expiresAt,
          ...(family.refreshedAt === undefined ? {} : { refreshedAt: family.refreshedAt }),
          ...(family.lastUsedAt === undefined ? {} : { lastUsedAt: family.lastUsedAt }),
          ...(family.user === undefined ? {} : { user: family.user }),
        }));
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
