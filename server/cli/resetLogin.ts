import { systemClock } from '../clock/clock.js';
import type { Logger } from '../logging/logger.js';
import {
  type CredentialsDocumentData,
  newGeneratedPassword,
  openBasicCredentials,
} from '../services/auth/credentials.js';
import { tokenDocumentMigrations } from '../services/auth/tokenDocument.js';
import { openTokenService, type TokenDocumentData } from '../services/auth/tokenService.js';
import { openStorage } from '../store/storage.js';

/**
 * `--reset-login`: the owner's stored login gets a new generated password, and every token
 * issued so far ends, as a changed login ends them (auth/loginChange.ts). The data directory's
 * lock is taken first, so a running gateway is refused ("stop it first") rather than raced.
 * Answers the login to print, once.
 */
export async function resetLogin(
  dataDir: string,
  logger: Logger,
): Promise<{ username: string; password: string }> {
  const storage = await openStorage({ dataDir, clock: systemClock, logger });
  try {
    const credentials = await openBasicCredentials({
      document: await storage.openDocument<CredentialsDocumentData>('credentials', {}),
    });
    const tokens = await openTokenService({
      document: await storage.openDocument<TokenDocumentData>('tokens', {}, tokenDocumentMigrations),
      clock: systemClock,
      logger,
    });
    const password = credentials.generatedPassword ?? newGeneratedPassword();
    if (credentials.generatedPassword === undefined) await credentials.change(credentials.username, password);
    await tokens.revokeAll();
    return { username: credentials.username, password };
  } finally {
    await storage.close();
  }
}
