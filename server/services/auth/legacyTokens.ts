import type { Clock } from '../../clock/clock.js';
import type { Document } from '../../store/documentStore.js';
import type { TokenDocumentData } from './tokenDocument.js';

/**
 * Tokens signed before token families existed: an upgrade must not end the tokens
 * apps hold, so they stay valid until the longest of them has expired — unless revoked by id,
 * or all at once — and then this list is dropped. It can only shrink after the upgrade, except
 * for ids revoked by hand, which are bounded: past `maxRevoked` every legacy token ends.
 */
export interface LegacyTokenList {
  /** Whether a legacy token carrying these ids (jti, family, linked access token) is valid. */
  honours(ids: readonly (string | undefined)[]): boolean;
  /** Refuses tokens carrying any of the ids from now on; resolves once on disk. */
  revoke(ids: readonly string[]): Promise<void>;
  /** Ends every legacy token. */
  end(): Promise<void>;
}

export interface LegacyTokenOptions {
  document: Pick<Document<TokenDocumentData>, 'data' | 'update'>;
  clock: Clock;
  /** The longest lifetime a token signed before the upgrade can have had (ms). */
  longestLifetimeMs: number;
  /** Default 1,000. */
  maxRevoked?: number;
}

export async function openLegacyTokens(options: LegacyTokenOptions): Promise<LegacyTokenList> {
  const { document, clock } = options;
  const maxRevoked = options.maxRevoked ?? 1_000;
  const legacy = document.data.legacy;
  if (legacy && legacy.until === undefined) {
    // The first start after the upgrade: every legacy token was signed before now.
    const until = clock.now() + options.longestLifetimeMs;
    await document.update((data) => {
      if (data.legacy) data.legacy.until = until;
    });
  }
  const revoked = new Map<string, number>();
  for (const [id, until] of Object.entries(document.data.legacy?.revoked ?? {})) {
    if (typeof until === 'number' && until > clock.now()) revoked.set(id, until);
  }
  const active = () => (document.data.legacy?.until ?? 0) > clock.now();

  const end = () =>
    document.update((data) => {
      revoked.clear();
      delete data.legacy;
    });

  if (legacy && !active()) await end();

  return {
    honours: (ids) => active() && ids.every((id) => id === undefined || !revoked.has(id)),
    revoke(ids) {
      const until = document.data.legacy?.until ?? 0;
      if (until <= clock.now()) return Promise.resolve();
      for (const id of ids) revoked.set(id, until);
      if (revoked.size > maxRevoked) return end();
      return document.update((data) => {
        if (data.legacy) data.legacy.revoked = Object.fromEntries(revoked);
      });
    },
    end,
  };
}
