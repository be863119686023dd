import type { AccessControl, Principal } from './accessControl.js';

/** A user name and password from a protocol that has no Authorization header (SMTP AUTH, SMPP bind). */
export interface SenderLogin {
  username: string;
  password: string;
  /** The peer's address, for the logs. */
  ip: string;
  via: 'smtp' | 'smpp';
}

/**
 * Checks a login as the HTTP API would (`AccessControl.authenticateLogin`: throttled and counted
 * alike), then requires `messages:send`. Throws the access control's GatewayError
 * (Unauthorized, Forbidden, TooManyAttempts).
 */
export async function authenticateSender(
  accessControl: AccessControl,
  login: SenderLogin,
): Promise<Principal> {
  const principal = await accessControl.authenticateLogin(login, { ip: login.ip }, login.via);
  accessControl.authorize(principal, 'messages:send');
  return principal;
}
