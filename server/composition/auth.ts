import { type AccessControl, createAccessControl } from '../auth/accessControl.js';
import { createAttemptPacer } from '../auth/attemptPacer.js';
import {
  type BasicCredentials,
  type CredentialsDocumentData,
  openBasicCredentials,
  type ScryptCost,
} from '../auth/credentials.js';
import { createLoginChange, type LoginChange } from '../auth/loginChange.js';
import { createLoginThrottle, type LoginThrottleOptions } from '../auth/loginThrottle.js';
import { tokenDocumentMigrations } from '../auth/tokenDocument.js';
import { openTokenService, type TokenDocumentData, type TokenService } from '../auth/tokenService.js';
import type { CompositionContext } from './context.js';

export interface GatewayAuth {
  credentials: BasicCredentials;
  tokens: TokenService;
  accessControl: AccessControl;
  login: LoginChange;
}

/**
 * Who may call the API. The Basic login (given by options, stored, or generated on a
 * first run), the JWT tokens, the access control with its login throttle, and changing the login.
 */
export async function composeAuth(
  context: CompositionContext,
  deps: {
    /** `--username`/`--password`; absent: the stored (or a generated) login. */
    login: { username?: string; password?: string };
    throttle: Pick<LoginThrottleOptions, 'maxFailures' | 'windowMs'> | undefined;
    /** Tests hash with cheap parameters; default `defaultScryptCost`. */
    scryptCost?: ScryptCost;
  },
): Promise<GatewayAuth> {
  const { storage, clock, logger } = context;
  const credentials = await openBasicCredentials({
    document: await storage.openDocument<CredentialsDocumentData>('credentials', {}),
    username: deps.login.username,
    password: deps.login.password,
    scryptCost: deps.scryptCost,
  });
  const tokens = await openTokenService({
    document: await storage.openDocument<TokenDocumentData>('tokens', {}, tokenDocumentMigrations),
    clock,
    logger,
  });
  const accessControl = createAccessControl({
    credentials,
    tokens,
    throttle: createLoginThrottle({ ...deps.throttle, clock }),
    pacer: createAttemptPacer({ clock }),
    clock,
    logger,
  });
  return {
    credentials,
    tokens,
    accessControl,
    login: createLoginChange({ credentials, accessControl, tokens }),
  };
}
