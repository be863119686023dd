import { randomInt } from 'node:crypto';
import type { Clock } from '../../clock/clock.js';
import { maxSystemIdLength, smppPasswordLength } from '../../contract/domain/smppLogin.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Document } from '../../store/documentStore.js';
import { ownEntry } from '../../store/ownEntry.js';
import { hashPassword, type ScryptCost } from './credentials.js';
import type { HashingGate } from './hashingGate.js';
import { createLoginChecks } from './loginChecks.js';
import type { StaffIdentity, StaffLogin } from './staffDirectory.js';

/** Characters a generated password is made of: none that a reader could take for another. */
const passwordAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
const systemIdShape = new RegExp(`^[A-Za-z0-9._-]{1,${maxSystemIdLength}}$`);

interface StoredSmppLogin {
  /** The person's id, or the app's identity id (`app:<id>`). */
  holder: string;
  passwordHash: string;
  createdAt: number;
}

export interface SmppLoginDocumentData {
  /** By system_id. */
  logins?: Record<string, StoredSmppLogin>;
}

/** A login just made: the only time its password is known. */
export interface IssuedSmppLogin {
  systemId: string;
  password: string;
}

/**
 * SMPP logins (docs/email-and-smpp.md): SMPP 3.4 §4.1.1 gives a bind 15 characters of
 * `system_id` and 8 of `password`, and clients such as Kannel cut longer ones, so the people's
 * and apps' own logins (and every API token) seldom fit. Each person or app may have one login
 * that fits, acting as them; its password is made here, shown once, and kept as a scrypt hash.
 * A bind under a login's system_id is checked against that login only: one named like its own
 * holder (the default) takes the place of the holder's name over SMPP.
 */
export interface SmppLogins {
  /** The login a bind's system_id names, acting as its holder as they are now. */
  login(systemId: string): StaffLogin | undefined;
  /** The holder's system_id; undefined when they have none. */
  systemIdOf(holder: string): string | undefined;
  /** Whether some login has this system_id: a new person's or app's name must not shadow it. */
  has(systemId: string): boolean;
  /**
   * Makes the holder's login with a new password, replacing the one they had. Without a
   * `systemId` it keeps theirs, or makes one from their name. 400 naming `systemId` when it does
   * not fit SMPP; 409 when another holder's login, person or app has that name.
   */
  issue(holder: StaffIdentity, systemId?: string): Promise<IssuedSmppLogin>;
  /** Removes the holder's login; false when they had none. */
  remove(holder: string): Promise<boolean>;
}

export function openSmppLogins(options: {
  document: Pick<Document<SmppLoginDocumentData>, 'data' | 'update'>;
  hashing: HashingGate;
  clock: Clock;
  scryptCost?: ScryptCost;
  /** The holder as they are now; undefined once removed. */
  identity: (holder: string) => StaffIdentity | undefined;
  /** Whether a person or an app signs in with this name: an SMPP login never shadows one. */
  nameTaken: (name: string) => StaffIdentity | undefined;
}): SmppLogins {
  const { document, clock } = options;
  const checks = createLoginChecks(options.hashing);
  const logins = () => document.data.logins ?? {};
  const entryOf = (holder: string) => Object.entries(logins()).find(([, login]) => login.holder === holder);

  const without = (systemId: string) =>
    document.update((data) => {
      const { [systemId]: _removed, ...rest } = data.logins ?? {};
      data.logins = rest;
    });

  /** Nobody else's: no other holder's SMPP login, and no other person's or app's name. */
  const isFree = (systemId: string, holder: string) => {
    const login = ownEntry(logins(), systemId);
    const named = options.nameTaken(systemId);
    return (login === undefined || login.holder === holder) && (named === undefined || named.id === holder);
  };

  /** The holder's name as a system_id: letters and digits kept, cut to fit, numbered when taken. */
  const systemIdFrom = (holder: StaffIdentity): string => {
    const base =
      holder.name
        .normalize('NFKD')
        .replace(/[^A-Za-z0-9._-]/g, '')
        .slice(0, maxSystemIdLength) || 'smpp';
    const free = (candidate: string) => isFree(candidate, holder.id);
    if (free(base)) return base;
    for (let number = 2; ; number++) {
      const suffix = `-${number}`;
      const candidate = `${base.slice(0, maxSystemIdLength - suffix.length)}${suffix}`;
      if (free(candidate)) return candidate;
    }
  };

  return {
    login(systemId) {
      const stored = ownEntry(logins(), systemId);
      const identity = stored && options.identity(stored.holder);
      if (!stored || !identity) return undefined;
      return {
        identity,
        check: checks.of({ id: systemId, name: systemId, passwordHash: stored.passwordHash }),
      };
    },
    systemIdOf: (holder) => entryOf(holder)?.[0],
    has: (systemId) => ownEntry(logins(), systemId) !== undefined,
    async issue(holder, requested) {
      if (requested !== undefined && !systemIdShape.test(requested)) {
        throw new GatewayError(
          ErrorCode.ValidationFailed,
          `systemId: 1 to ${maxSystemIdLength} letters, digits, ".", "_" or "-" (SMPP 3.4 §4.1.1), not ${JSON.stringify(requested)}`,
          { field: 'systemId' },
        );
      }
      const current = entryOf(holder.id)?.[0];
      const systemId = requested ?? current ?? systemIdFrom(holder);
      if (!isFree(systemId, holder.id)) {
        throw new GatewayError(ErrorCode.Conflict, `systemId: "${systemId}" is taken`, { field: 'systemId' });
      }
      const password = Array.from(
        { length: smppPasswordLength },
        () => passwordAlphabet[randomInt(passwordAlphabet.length)],
      ).join('');
      const login: StoredSmppLogin = {
        holder: holder.id,
        passwordHash: await hashPassword(password, options.scryptCost),
        createdAt: clock.now(),
      };
      await document.update((data) => {
        const { [current ?? systemId]: _replaced, ...rest } = data.logins ?? {};
        data.logins = { ...rest, [systemId]: login };
      });
      checks.forget(systemId);
      if (current !== undefined) checks.forget(current);
      return { systemId, password };
    },
    async remove(holder) {
      const systemId = entryOf(holder)?.[0];
      if (systemId === undefined) return false;
      await without(systemId);
      checks.forget(systemId);
      return true;
    },
  };
}
