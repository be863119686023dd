import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Document } from '../../store/documentStore.js';
import { createHashingGate, type HashingGate } from './hashingGate.js';

/**
 * Basic credentials (spec: Authentication, method 1). Either given by the user
 * (`--username/--password`, used for that run only and never written) or generated on first run
 * and stored as a salted scrypt hash; the generated password is returned once so the
 * composition root can print it, and is unrecoverable afterwards.
 */
export interface StoredCredentials {
  username: string;
  /** `scrypt$<N>$<r>$<p>$<base64 salt>$<base64 key>`: parameters travel with the hash. */
  passwordHash: string;
}

export interface CredentialsDocumentData {
  basic?: StoredCredentials;
}

/** Checks a Basic pair against one login; the owner's and each staff user's (auth/). */
export interface PasswordCheck {
  /**
   * Hashes with scrypt, a few at a time (`hashingGate.ts`); rejects with TooManyAttempts when
   * too many checks already wait.
   */
  verify(username: string, password: string): Promise<boolean>;
  /**
   * Whether this exact pair verified before (and the login has not changed since), without
   * hashing: lets a client that logged in keep working while guessers are throttled.
   */
  recognises(username: string, password: string): boolean;
  /**
   * The check of this exact pair that is under way, if any. A client that opens many
   * connections at once sends its pair on each before the first check ends: they wait for that
   * one (one pair, one guess) instead of each counting as a failed login.
   */
  checking(username: string, password: string): Promise<boolean> | undefined;
}

export interface BasicCredentials extends PasswordCheck {
  readonly username: string;
  /** Set only when this run generated the credentials: print it once, then forget it. */
  readonly generatedPassword?: string;
  /** Where the credentials came from, for the start-up log and the UI. */
  readonly source: 'options' | 'stored' | 'generated';
  /**
   * Replaces the stored login (the first-run panel's "change it"). Refused with InvalidState
   * while `--username/--password` set it for this run: the change would not last.
   */
  change(username: string, password: string): Promise<void>;
  /** Called after every change: what the old login opened (an event stream) must close. */
  onChange(listener: () => void): () => void;
}

export interface BasicCredentialsOptions {
  document: Pick<Document<CredentialsDocumentData>, 'data' | 'update'>;
  username?: string;
  password?: string;
  /** Injected so tests can use cheap parameters; defaults to `defaultScryptCost`. */
  scryptCost?: ScryptCost;
  /** Shared with the staff users' logins, so that all hashing together stays bounded. */
  hashing?: HashingGate;
}

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** N=2^14, r=8, p=1: ~16 MiB and tens of ms per hash, the scrypt paper's interactive-login cost. */
export const defaultScryptCost: ScryptCost = { N: 16_384, r: 8, p: 1 };

const keyLength = 32;
const minimumPasswordLength = 8;
export const generatedUsername = 'sms';

export async function openBasicCredentials(options: BasicCredentialsOptions): Promise<BasicCredentials> {
  const cost = options.scryptCost ?? defaultScryptCost;
  const hashing = options.hashing ?? createHashingGate();
  const store = async (basic: StoredCredentials) =>
    options.document.update((data) => {
      data.basic = basic;
    });
  const changeStored = async (username: string, password: string) => {
    const checked = checkConfigured(username, password);
    const basic = { username: checked.username, passwordHash: await hashPassword(checked.password, cost) };
    await store(basic);
    return basic;
  };
  if (options.username !== undefined || options.password !== undefined) {
    const { username, password } = checkConfigured(options.username, options.password);
    return credentialsFrom(username, await hashPassword(password, cost), 'options', hashing, async () => {
      throw new GatewayError(
        ErrorCode.InvalidState,
        'the login was given with --username/--password (or their environment twins); change it there',
      );
    });
  }
  const stored = options.document.data.basic;
  if (stored) return credentialsFrom(stored.username, stored.passwordHash, 'stored', hashing, changeStored);
  const password = newGeneratedPassword();
  const basic: StoredCredentials = {
    username: generatedUsername,
    passwordHash: await hashPassword(password, cost),
  };
  await store(basic);
  return credentialsFrom(basic.username, basic.passwordHash, 'generated', hashing, changeStored, password);
}

/** 18 random bytes → 24 base64url characters (144 bits): typable, no padding, no quoting. */
export function newGeneratedPassword(): string {
  return randomBytes(18).toString('base64url');
}

function checkConfigured(username: string | undefined, password: string | undefined) {
  if (username === undefined || username === '') {
    throw new GatewayError(ErrorCode.ConfigInvalid, 'username: required with --password', {
      field: 'username',
    });
  }
  // RFC 7617 §2: the user-id cannot contain a colon; the first colon ends it.
  if (username.includes(':')) {
    throw new GatewayError(ErrorCode.ConfigInvalid, 'username: must not contain ":"', { field: 'username' });
  }
  if (password === undefined || [...password].length < minimumPasswordLength) {
    throw new GatewayError(
      ErrorCode.ConfigInvalid,
      `password: at least ${minimumPasswordLength} characters required with --username`,
      { field: 'password' },
    );
  }
  return { username, password };
}

function credentialsFrom(
  initialUsername: string,
  initialHash: string,
  source: BasicCredentials['source'],
  hashing: HashingGate,
  replace: (username: string, password: string) => Promise<StoredCredentials>,
  generatedPassword?: string,
): BasicCredentials {
  let username = initialUsername;
  let check = createPasswordCheck({ username, passwordHash: initialHash }, hashing);
  const changeListeners = new Set<() => void>();
  return {
    get username() {
      return username;
    },
    source,
    ...(generatedPassword === undefined ? {} : { generatedPassword }),
    async change(newUsername, newPassword) {
      const stored = await replace(newUsername, newPassword);
      username = stored.username;
      // A fresh check: the old pair must not pass the digest shortcut any more.
      check = createPasswordCheck(stored, hashing);
      for (const listener of changeListeners) listener();
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    recognises: (user, password) => check.recognises(user, password),
    checking: (user, password) => check.checking(user, password),
    verify: (user, password) => check.verify(user, password),
  };
}

/** The check of one stored login; replaced, not changed, when the login changes. */
export function createPasswordCheck(login: StoredCredentials, hashing: HashingGate): PasswordCheck {
  const expectedUser = Buffer.from(login.username, 'utf8');
  // Upstream clients send Basic on every request and scrypt is deliberately slow, so once a
  // pair has verified, later requests compare a keyed digest of it instead (per-instance key,
  // never stored). A wrong pair still pays the full scrypt cost. The key is a prefix of one
  // SHA-256 call rather than an HMAC: the digests never leave the process, so length extension
  // gives nobody anything, and the one-shot hash costs half an HMAC on every request.
  const digestKey = randomBytes(32).toString('hex');
  const digestOf = (user: string, password: string) =>
    hash('sha256', `${digestKey}:${user}:${password.normalize('NFC')}`, 'buffer');
  let verifiedDigest: Buffer | undefined;
  // A client opening many connections at once sends the same pair many times before the first
  // check finishes: they share that one scrypt run instead of queueing one each.
  const inFlight = new Map<string, Promise<boolean>>();

  const check = async (candidateUser: string, candidatePassword: string, digest: Buffer) => {
    // Both checks always run, so timing does not reveal whether the user name was right.
    const passwordMatches = await hashing.run(() => verifyPassword(candidatePassword, login.passwordHash));
    const matches = constantTimeEqual(Buffer.from(candidateUser, 'utf8'), expectedUser) && passwordMatches;
    if (matches) verifiedDigest = digest;
    return matches;
  };

  return {
    recognises(candidateUser, candidatePassword) {
      const digest = digestOf(candidateUser, candidatePassword);
      return verifiedDigest !== undefined && timingSafeEqual(digest, verifiedDigest);
    },
    checking(candidateUser, candidatePassword) {
      return inFlight.get(digestOf(candidateUser, candidatePassword).toString('hex'));
    },
    verify(candidateUser, candidatePassword) {
      const digest = digestOf(candidateUser, candidatePassword);
      if (verifiedDigest && timingSafeEqual(digest, verifiedDigest)) return Promise.resolve(true);
      const key = digest.toString('hex');
      const pending = inFlight.get(key);
      if (pending) return pending;
      const started = check(candidateUser, candidatePassword, digest).finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
  };
}

export async function hashPassword(password: string, cost: ScryptCost = defaultScryptCost): Promise<string> {
  const salt = randomBytes(16);
  const key = await deriveKey(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, passwordHash: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = passwordHash.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) {
    throw new GatewayError(ErrorCode.StoreCorrupt, 'stored password hash has an unknown format');
  }
  const expected = Buffer.from(key, 'base64');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const actual = await deriveKey(password, Buffer.from(salt, 'base64'), cost, expected.length);
  return timingSafeEqual(actual, expected);
}

function deriveKey(password: string, salt: Buffer, cost: ScryptCost, length = keyLength): Promise<Buffer> {
  // Node refuses N·r·128 above maxmem (32 MiB by default); leave room for the chosen cost.
  const maxmem = 256 * cost.N * cost.r;
  return new Promise((resolve, reject) => {
    // RFC 8265 §4.2 (OpaqueString): passwords compare in Unicode NFC, so "é" typed precomposed
    // or decomposed is the same password.
    scrypt(password.normalize('NFC'), salt, length, { ...cost, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Equal-time comparison of unequal-length inputs too (timingSafeEqual alone throws on those). */
export function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  const padded = Buffer.alloc(b.length);
  a.copy(padded, 0, 0, Math.min(a.length, b.length));
  return timingSafeEqual(padded, b) && a.length === b.length;
}
