import type { Clock } from '../../clock/clock.js';
import type { Document } from '../../store/documentStore.js';
import type { StoredFamily, TokenDocumentData } from './tokenDocument.js';

/**
 * The live token families: what `GET /gateway/v1/tokens` lists, and the only server
 * state a token is checked against. Revoking is forgetting, so the document holds live
 * families only — never a growing list of revoked ids — and a family is pruned at its end.
 *
 * The in-memory map is the authority: every change happens synchronously, before its promise
 * settles, so a check-then-rotate with no await in between is atomic (two concurrent refreshes
 * of one token cannot both pass). The document follows for restarts.
 */
export interface TokenFamilies {
  /** The family while it lives; undefined once revoked, forgotten or over. */
  get(id: string): StoredFamily | undefined;
  /**
   * Beyond a holder's limit, that holder's family used least recently is forgotten; beyond the
   * whole limit, anyone's (`onForget`).
   */
  add(family: StoredFamily): Promise<void>;
  /** The next generation becomes the valid one. */
  rotate(family: StoredFamily): Promise<void>;
  /** Notes a use in memory; it reaches the disk with the next write. */
  touch(family: StoredFamily): void;
  /** Resolves to whether the family was live. */
  remove(id: string): Promise<boolean>;
  clear(): Promise<void>;
  list(): StoredFamily[];
}

export interface TokenFamiliesOptions {
  document: Pick<Document<TokenDocumentData>, 'data' | 'update'>;
  clock: Clock;
  /** Most live families. A client that logs in on every call makes a family each time. */
  maxFamilies: number;
  /**
   * Most live families of one person or app: one that mints tokens without end forgets its own
   * oldest, never another's.
   */
  maxFamiliesPerHolder: number;
  /** Told of a live family forgotten to stay within `maxFamilies`. */
  onForget(family: StoredFamily): void;
}

export function openTokenFamilies(options: TokenFamiliesOptions): TokenFamilies {
  const { document, clock } = options;
  const families = new Map<string, StoredFamily>();
  for (const family of Object.values(document.data.families ?? {})) {
    if (family.expiresAt > clock.now()) families.set(family.id, family);
  }

  const lastActive = (family: StoredFamily) =>
    Math.max(family.issuedAt, family.refreshedAt ?? 0, family.lastUsedAt ?? 0);

  const save = () =>
    document.update((data) => {
      const now = clock.now();
      for (const [id, family] of families) if (family.expiresAt <= now) families.delete(id);
      data.families = Object.fromEntries(families);
    });

  const stalestOf = (candidates: Iterable<StoredFamily>): StoredFamily | undefined => {
    let stalest: StoredFamily | undefined;
    for (const candidate of candidates) {
      if (!stalest || lastActive(candidate) < lastActive(stalest)) stalest = candidate;
    }
    return stalest;
  };
  const forget = (family: StoredFamily | undefined) => {
    if (!family) return;
    families.delete(family.id);
    options.onForget(family);
  };

  const get = (id: string) => {
    const family = families.get(id);
    return family && family.expiresAt > clock.now() ? family : undefined;
  };

  return {
    get,
    add(family) {
      families.set(family.id, family);
      const holders = [...families.values()].filter((candidate) => candidate.user === family.user);
      if (holders.length > options.maxFamiliesPerHolder) forget(stalestOf(holders));
      while (families.size > options.maxFamilies) forget(stalestOf(families.values()));
      return save();
    },
    rotate(family) {
      family.generation++;
      family.refreshedAt = clock.now();
      return save();
    },
    touch(family) {
      family.lastUsedAt = clock.now();
    },
    async remove(id) {
      const live = families.delete(id);
      if (live) await save();
      return live;
    },
    clear() {
      families.clear();
      return save();
    },
    list: () => [...families.values()].filter((family) => family.expiresAt > clock.now()),
  };
}
