import type { Gateway } from '../../server/index.js';

/**
 * The owner's short-lived session token, as the desktop window gets it while the owner is the
 * only person (`windowSessionToken`); a test that added people has to sign in instead.
 */
export async function ownerSessionToken(gateway: Pick<Gateway, 'windowSessionToken'>): Promise<string> {
  const token = await gateway.windowSessionToken();
  if (token === undefined) throw new Error('the gateway has people besides the owner: sign in instead');
  return token;
}
