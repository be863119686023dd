import { createPasswordCheck, type PasswordCheck } from './credentials.js';
import type { HashingGate } from './hashingGate.js';

/**
 * One password check per stored login (a person's or an app's), made when first needed and
 * dropped when the login changes: it keeps the digest of the pair that verified, so a client
 * that signed in does not pay scrypt on every request (credentials.ts).
 */
export interface LoginChecks {
  of(login: { id: string; name: string; passwordHash: string }): PasswordCheck;
  forget(id: string): void;
}

export function createLoginChecks(hashing: HashingGate): LoginChecks {
  const checks = new Map<string, PasswordCheck>();
  return {
    of(login) {
      let check = checks.get(login.id);
      if (!check) {
        check = createPasswordCheck({ username: login.name, passwordHash: login.passwordHash }, hashing);
        checks.set(login.id, check);
      }
      return check;
    },
    forget: (id) => checks.delete(id),
  };
}
