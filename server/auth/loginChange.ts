import type { AccessControl, CallerRequest } from './accessControl.js';
import type { BasicCredentials } from './credentials.js';
import type { TokenService } from './tokenService.js';

/**
 * Replacing the Basic login (PUT /gateway/v1/credentials; issue 36). A token is not enough,
 * not even the window's own session: whoever holds a leaked one could set a login of their own,
 * lock the owner out and mint themselves month-long tokens with it. So the current password is
 * asked for, and the change ends every token issued so far — a password is changed because it
 * may have leaked, and so may the tokens made with it.
 */
export interface LoginChange {
  change(caller: CallerRequest, request: LoginChangeRequest): Promise<void>;
}

export interface LoginChangeRequest {
  currentPassword: string;
  username: string;
  password: string;
}

export function createLoginChange(deps: {
  credentials: BasicCredentials;
  accessControl: AccessControl;
  tokens: TokenService;
}): LoginChange {
  return {
    async change(caller, request) {
      await deps.accessControl.confirmPassword(caller, request.currentPassword, 'currentPassword');
      await deps.credentials.change(request.username, request.password);
      await deps.tokens.revokeAll();
    },
  };
}
