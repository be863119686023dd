import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { AccessControl, CallerRequest } from './accessControl.js';
import type { BasicCredentials } from './credentials.js';
import { ownerId, type StaffDirectory, type StaffIdentity } from './staffDirectory.js';
import type { TokenService } from './tokenService.js';

/**
 * Replacing the Basic login (PUT /gateway/v1/credentials) and a person's own password
 * (PUT /gateway/v1/me/password). A token is not enough, not even the window's own session:
 * whoever holds a leaked one could set a login of their own, lock the owner out and mint
 * themselves month-long tokens with it. So the current password is asked for, and the change
 * ends the tokens made with the old one — a password is changed because it may have leaked, and
 * so may those tokens (every token, for the owner's login).
 */
export interface LoginChange {
  change(caller: CallerRequest, request: LoginChangeRequest): Promise<void>;
  /** The caller's own password; an app's is its owner's to set (PATCH /gateway/v1/apps/{id}). */
  changeOwnPassword(caller: CallerRequest, who: StaffIdentity, request: PasswordChangeRequest): Promise<void>;
}

export interface PasswordChangeRequest {
  currentPassword: string;
  password: string;
}

export interface LoginChangeRequest extends PasswordChangeRequest {
  username: string;
}

export function createLoginChange(deps: {
  credentials: BasicCredentials;
  staff: Pick<StaffDirectory, 'update'>;
  accessControl: AccessControl;
  tokens: Pick<TokenService, 'revokeAll' | 'revokeUser'>;
  /** Whether a person or an app logs in with the name: the owner's login may not take it. */
  nameTaken: (name: string) => boolean;
}): LoginChange {
  const change: LoginChange['change'] = async (caller, request) => {
    if (request.username !== deps.credentials.username && deps.nameTaken(request.username)) {
      throw new GatewayError(ErrorCode.Conflict, `username: "${request.username}" is taken`, {
        field: 'username',
      });
    }
    await deps.accessControl.confirmPassword(
      caller,
      deps.credentials.username,
      request.currentPassword,
      'currentPassword',
    );
    await deps.credentials.change(request.username, request.password);
    await deps.tokens.revokeAll();
  };
  return {
    change,
    async changeOwnPassword(caller, who, request) {
      if (who.role === 'app') {
        throw new GatewayError(ErrorCode.Forbidden, "an app's password is set by the owner");
      }
      if (who.id === ownerId) {
        await change(caller, { ...request, username: deps.credentials.username });
        return;
      }
      await deps.accessControl.confirmPassword(caller, who.name, request.currentPassword, 'currentPassword');
      await deps.staff.update(who.id, { password: request.password });
      await deps.tokens.revokeUser(who.id);
    },
  };
}
