import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetLogin } from '../../server/cli/resetLogin.js';
import { systemClock } from '../../server/clock/clock.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import {
  type CredentialsDocumentData,
  openBasicCredentials,
} from '../../server/services/auth/credentials.js';
import { tokenDocumentMigrations } from '../../server/services/auth/tokenDocument.js';
import { openTokenService, type TokenDocumentData } from '../../server/services/auth/tokenService.js';
import { openStorage } from '../../server/store/storage.js';

/**
 * A lost first-run password is reset with a command (`--reset-login`), not by deleting files:
 * the stored login keeps its name and gets a new password, every token ends, and a running
 * gateway is refused rather than raced.
 */
describe('--reset-login', () => {
  let dataDir: string;

  /** A first start's login and one token issued with it, as a gateway would have left them. */
  const firstRun = async () => {
    const storage = await openStorage({ dataDir, clock: systemClock, logger: silentLogger });
    try {
      const credentials = await openBasicCredentials({
        document: await storage.openDocument<CredentialsDocumentData>('credentials', {}),
      });
      const tokens = await openTokenService({
        document: await storage.openDocument<TokenDocumentData>('tokens', {}, tokenDocumentMigrations),
        clock: systemClock,
        logger: silentLogger,
      });
      const issued = await tokens.issue(['messages:send']);
      return {
        username: credentials.username,
        password: credentials.generatedPassword ?? '',
        token: issued.accessToken,
      };
    } finally {
      await storage.close();
    }
  };

  /** The stored login and tokens as the next start reads them. */
  const nextStart = async <T>(
    read: (check: {
      verify: (user: string, password: string) => Promise<boolean>;
      tokenValid: (token: string) => Promise<boolean>;
    }) => Promise<T>,
  ) => {
    const storage = await openStorage({ dataDir, clock: systemClock, logger: silentLogger });
    try {
      const credentials = await openBasicCredentials({
        document: await storage.openDocument<CredentialsDocumentData>('credentials', {}),
      });
      const tokens = await openTokenService({
        document: await storage.openDocument<TokenDocumentData>('tokens', {}, tokenDocumentMigrations),
        clock: systemClock,
        logger: silentLogger,
      });
      return await read({
        verify: (user, password) => credentials.verify(user, password),
        tokenValid: (token) =>
          tokens.verify(token, 'access').then(
            () => true,
            () => false,
          ),
      });
    } finally {
      await storage.close();
    }
  };

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'smsgw-reset-login-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('gives the stored login a new password and ends every token issued with the old one', async () => {
    const before = await firstRun();
    await nextStart(async ({ tokenValid }) => {
      expect(await tokenValid(before.token)).toBe(true);
    });
    const after = await resetLogin(dataDir, silentLogger);
    expect(after.username).toBe(before.username);
    expect(after.password).not.toBe(before.password);
    await nextStart(async ({ verify, tokenValid }) => {
      expect(await verify(after.username, after.password)).toBe(true);
      expect(await verify(before.username, before.password)).toBe(false);
      expect(await tokenValid(before.token)).toBe(false);
    });
  });

  it('refuses while a gateway holds the data directory, and changes nothing', async () => {
    const before = await firstRun();
    const running = await openStorage({ dataDir, clock: systemClock, logger: silentLogger });
    try {
      await expect(resetLogin(dataDir, silentLogger)).rejects.toMatchObject({
        code: ErrorCode.DataDirLocked,
      });
    } finally {
      await running.close();
    }
    await nextStart(async ({ verify }) => {
      expect(await verify(before.username, before.password)).toBe(true);
    });
  });

  it('prints the new login once from the command line', async () => {
    await firstRun();
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'server/cli/main.ts', '--data-dir', dataDir, '--reset-login'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^The login is now sms \/ [A-Za-z0-9_-]{24} {3}\(shown once: keep it; every token issued before has ended\)\n$/,
    );
  });
});
