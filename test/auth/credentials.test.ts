import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import {
  type CredentialsDocumentData,
  hashPassword,
  openBasicCredentials,
  verifyPassword,
} from '../../server/services/auth/credentials.js';
import { JsonDisk } from './support/jsonDocument.js';

// Cheap scrypt cost: the tests check behaviour, not hardness.
const scryptCost = { N: 1_024, r: 8, p: 1 };

describe('openBasicCredentials', () => {
  it('generates a password on first run, returns it once and stores only a salted hash', async () => {
    const disk = new JsonDisk<CredentialsDocumentData>({});
    const credentials = await openBasicCredentials({ document: disk.open(), scryptCost });

    expect(credentials.source).toBe('generated');
    const password = credentials.generatedPassword ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);
    const stored = JSON.stringify(disk.read());
    expect(stored).not.toContain(password);
    expect(disk.read().basic?.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await credentials.verify(credentials.username, password)).toBe(true);
  });

  it('reuses the stored credentials after a restart without revealing the password again', async () => {
    const disk = new JsonDisk<CredentialsDocumentData>({});
    const first = await openBasicCredentials({ document: disk.open(), scryptCost });
    const second = await openBasicCredentials({ document: disk.open(), scryptCost });

    expect(second.source).toBe('stored');
    expect(second.generatedPassword).toBeUndefined();
    expect(await second.verify(first.username, first.generatedPassword ?? '')).toBe(true);
    expect(disk.writes).toBe(1);
  });

  it('uses credentials given as options for that run and never writes them', async () => {
    const disk = new JsonDisk<CredentialsDocumentData>({});
    const credentials = await openBasicCredentials({
      document: disk.open(),
      username: 'admin',
      password: 'correct horse',
      scryptCost,
    });

    expect(credentials.source).toBe('options');
    expect(await credentials.verify('admin', 'correct horse')).toBe(true);
    expect(disk.read()).toEqual({});
  });

  it('refuses a wrong password and a wrong user name', async () => {
    const credentials = await openBasicCredentials({
      document: new JsonDisk<CredentialsDocumentData>({}).open(),
      username: 'admin',
      password: 'correct horse',
      scryptCost,
    });

    expect(await credentials.verify('admin', 'correct hors')).toBe(false);
    expect(await credentials.verify('Admin', 'correct horse')).toBe(false);
    expect(await credentials.verify('', '')).toBe(false);
  });

  it('keeps refusing a wrong password after the right one was accepted', async () => {
    const credentials = await openBasicCredentials({
      document: new JsonDisk<CredentialsDocumentData>({}).open(),
      username: 'admin',
      password: 'correct horse',
      scryptCost,
    });

    expect(await credentials.verify('admin', 'correct horse')).toBe(true);
    expect(await credentials.verify('admin', 'correct horse')).toBe(true);
    expect(await credentials.verify('admin', 'wrong horse!')).toBe(false);
  });

  it('answers many simultaneous checks of the same pair alike, right or wrong', async () => {
    const credentials = await openBasicCredentials({
      document: new JsonDisk<CredentialsDocumentData>({}).open(),
      username: 'admin',
      password: 'correct horse',
      scryptCost,
    });

    const right = await Promise.all(
      Array.from({ length: 20 }, () => credentials.verify('admin', 'correct horse')),
    );
    const wrong = await Promise.all(
      Array.from({ length: 20 }, () => credentials.verify('admin', 'wrong horse')),
    );
    expect(right.every((result) => result)).toBe(true);
    expect(wrong.some((result) => result)).toBe(false);
  });

  it('bounds the password hashes waiting for the thread pool, refusing the rest with 429 (review 2)', async () => {
    const credentials = await openBasicCredentials({
      document: new JsonDisk<CredentialsDocumentData>({}).open(),
      username: 'admin',
      password: 'correct horse',
      scryptCost,
    });
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        credentials.verify('admin', `wrong horse ${index}`).then(
          (matches) => (matches ? 'match' : 'no match'),
          (error: { code?: number }) => String(error.code),
        ),
      ),
    );
    expect(outcomes).not.toContain('match');
    expect(outcomes.filter((result) => result === String(ErrorCode.TooManyAttempts)).length).toBeGreaterThan(
      0,
    );
    expect(await credentials.verify('admin', 'correct horse')).toBe(true);
  });

  it('recognises a pair that verified before without hashing, and forgets it when the login changes', async () => {
    const credentials = await openBasicCredentials({
      document: new JsonDisk<CredentialsDocumentData>({}).open(),
      scryptCost,
    });
    const password = credentials.generatedPassword ?? '';
    expect(credentials.recognises(credentials.username, password)).toBe(false);
    expect(await credentials.verify(credentials.username, password)).toBe(true);
    expect(credentials.recognises(credentials.username, password)).toBe(true);
    await credentials.change('admin', 'a new password');
    expect(credentials.recognises(credentials.username, password)).toBe(false);
  });

  it('treats a precomposed and a decomposed unicode password as the same (RFC 8265 NFC)', async () => {
    const credentials = await openBasicCredentials({
      document: new JsonDisk<CredentialsDocumentData>({}).open(),
      username: 'jürgen',
      password: 'caf\u00e9-пароль',
      scryptCost,
    });

    expect(await credentials.verify('jürgen', 'cafe\u0301-пароль')).toBe(true);
  });

  it.each([
    ['a user name with a colon (RFC 7617 §2)', { username: 'a:b', password: 'long enough' }, 'username'],
    ['a password without a user name', { password: 'long enough' }, 'username'],
    ['a user name without a password', { username: 'admin' }, 'password'],
    ['a password shorter than 8 characters', { username: 'admin', password: 'short' }, 'password'],
  ])('refuses %s as configuration', async (_name, given, field) => {
    const opening = openBasicCredentials({
      document: new JsonDisk<CredentialsDocumentData>({}).open(),
      scryptCost,
      ...given,
    });
    await expect(opening).rejects.toMatchObject({ code: ErrorCode.ConfigInvalid, field });
  });
});

describe('hashPassword', () => {
  it('salts every hash, so one password never hashes the same twice', async () => {
    const first = await hashPassword('same password', scryptCost);
    const second = await hashPassword('same password', scryptCost);

    expect(first).not.toBe(second);
    expect(await verifyPassword('same password', first)).toBe(true);
    expect(await verifyPassword('same password', second)).toBe(true);
  });

  it('reports a stored hash in an unknown format as a corrupt store', async () => {
    await expect(verifyPassword('x', 'md5$abc')).rejects.toMatchObject({ code: ErrorCode.StoreCorrupt });
  });
});
