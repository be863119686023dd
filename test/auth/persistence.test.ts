import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock/manualClock.js';
import { ErrorCode } from '../../server/errors/gatewayError.js';
import { silentLogger } from '../../server/logging/logger.js';
import {
  type CredentialsDocumentData,
  openBasicCredentials,
} from '../../server/services/auth/credentials.js';
import { openTokenService, type TokenDocumentData } from '../../server/services/auth/tokenService.js';
import { openDocument } from '../../server/store/documentStore.js';

/** The auth state on the storage layer's real document files, as the composition root wires it. */
describe('auth state on real document files', () => {
  let dir: string;
  const clock = new ManualClock();

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'smsgw-auth-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const openAuthDocument = () =>
    openDocument<CredentialsDocumentData & TokenDocumentData>({
      path: join(dir, 'auth.json'),
      defaults: {},
      clock,
      logger: silentLogger,
    });

  const openAll = async () => {
    const document = await openAuthDocument();
    const credentials = await openBasicCredentials({ document, scryptCost: { N: 1_024, r: 8, p: 1 } });
    const tokens = await openTokenService({ document, clock, logger: silentLogger });
    return { credentials, tokens };
  };

  it('keeps credentials, signing secret and revocations in a private file across a restart', async () => {
    const first = await openAll();
    const password = first.credentials.generatedPassword ?? '';
    const kept = await first.tokens.issue(['messages:send']);
    const revoked = await first.tokens.issue(['messages:send']);
    await first.tokens.revoke(revoked.id);

    const file = join(dir, 'auth.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).not.toContain(password);

    const second = await openAll();
    expect(second.credentials.source).toBe('stored');
    expect(await second.credentials.verify(first.credentials.username, password)).toBe(true);
    await expect(second.tokens.verify(kept.accessToken, 'access')).resolves.toMatchObject({ jti: kept.id });
    await expect(second.tokens.verify(revoked.accessToken, 'access')).rejects.toMatchObject({
      code: ErrorCode.Unauthorized,
      reason: 'revoked',
    });
  });
});
