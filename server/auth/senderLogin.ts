import type { AccessControl, Principal } from './accessControl.js';

/** A user name and password from a protocol that has no Authorization header (SMTP AUTH, SMPP bind). */
export interface SenderLogin {
  username: string;
  password: string;
  /** The peer's address, for the logs. */
  ip: string;
}

/** A JWT's three base64url parts (RFC 7519 §3): such a password is an API token, not the login. */
const tokenShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Checks a login as the HTTP API would: the gateway's Basic login (throttled and counted alike),
 * or an access token given as the password under any user name. Then requires `messages:send`.
 * Throws the access control's GatewayError (Unauthorized, Forbidden, TooManyAttempts).
 */
export async function authenticateSender(
  accessControl: AccessControl,
  login: SenderLogin,
): Promise<Principal> {
  const authorization = tokenShape.test(login.password)
    ? `Bearer ${login.password}`
    : `Basic ${Buffer.from(`${login.username}:${login.password}`, 'utf8').toString('base64')}`;
  const principal = await accessControl.authenticate({ authorization, ip: login.ip }, 'access');
  accessControl.authorize(principal, 'messages:send');
  return principal;
}
