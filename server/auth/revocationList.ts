import type { Clock } from '../clock/clock.js';
import type { Document } from '../store/documentStore.js';

/**
 * Revoked token ids (jti or token family), each kept until every token it could refuse has
 * expired, then pruned. Persisted so a revoked token stays refused after a restart.
 *
 * The in-memory map is the authority: `add` marks synchronously, before its promise settles, so
 * a check-then-mark with no await in between is atomic (two concurrent refreshes of one token
 * cannot both pass). The document follows for restarts.
 */
export interface RevocationDocumentData {
  /** id → ms since epoch after which no token carrying it can still be valid. */
  revoked: Record<string, number>;
}

export interface RevocationList {
  has(id: string): boolean;
  /** Marks the ids at once; resolves when the list is on disk. */
  add(ids: readonly string[], until: number): Promise<void>;
}

export function openRevocationList(
  document: Pick<Document<RevocationDocumentData>, 'data' | 'update'>,
  clock: Clock,
): RevocationList {
  const revoked = new Map<string, number>();
  for (const [id, until] of Object.entries(document.data.revoked ?? {})) {
    if (typeof until === 'number' && until > clock.now()) revoked.set(id, until);
  }

  return {
    has: (id) => revoked.has(id),
    add(ids, until) {
      for (const id of ids) revoked.set(id, Math.max(until, revoked.get(id) ?? 0));
      return document.update((data) => {
        const now = clock.now();
        for (const [id, expiry] of revoked) if (expiry <= now) revoked.delete(id);
        data.revoked = Object.fromEntries(revoked);
      });
    },
  };
}
