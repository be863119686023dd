import type { Scope } from '../../contract/domain/scopes.js';
import type { DocumentMigration } from '../../store/documentStore.js';

/**
 * The `tokens` document: the signing key, the live token families, and what is left of the
 * tokens signed before families existed.
 */
export interface TokenDocumentData {
  /** HS256 key, base64url, 32 random bytes; created on first start. */
  secret?: string;
  /** Live families by id; a family no longer here is revoked or over. */
  families?: Record<string, StoredFamily>;
  legacy?: LegacyTokens;
}

/** Who asked for a family: the window's own sign-in, the Basic password, or another token. */
export type TokenIssuer = 'window' | 'password' | 'token';

/**
 * Every pair rotated from one issued pair. Its tokens carry the family id and the generation
 * they were signed in; only the current generation's are valid.
 */
export interface StoredFamily {
  id: string;
  scopes: Scope[];
  /** The access token lifetime asked for at issue (s); each rotation grants it again. */
  ttl: number;
  issuedBy: TokenIssuer;
  /** ms since the epoch. */
  issuedAt: number;
  /** No token of the family is valid after this (ms): set at issue, never renewed. */
  expiresAt: number;
  /** Rotations so far. */
  generation: number;
  refreshedAt?: number;
  lastUsedAt?: number;
  /**
   * The staff user (auth/staffDirectory.ts) the family was issued to; absent: the owner,
   * the only person there is before staff users are added.
   */
  user?: string;
}

/**
 * Tokens signed before families existed carry no generation and are in no family:
 * they stay valid until `until`, by which the longest of them has expired, unless their id is
 * in `revoked` (id → ms after which no token carrying it can be valid).
 */
export interface LegacyTokens {
  /** ms since the epoch; set on the first start after the upgrade. */
  until?: number;
  revoked: Record<string, number>;
}

export const tokenDocumentMigrations: readonly DocumentMigration[] = [
  // 0 → 1: the revocation list of every token id becomes the legacy list; a document without a
  // secret never signed a token, so it has nothing to honour.
  ({ revoked, ...rest }) => ({
    ...rest,
    families: {},
    ...(typeof rest.secret === 'string' ? { legacy: { revoked: revoked ?? {} } } : {}),
  }),
];
