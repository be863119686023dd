import type { Caller } from '../../contract/domain/caller.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Principal } from '../../services/auth/accessControl.js';
import { callerOf } from '../../services/auth/appDirectory.js';

/** The caller a route passes to the services: the principal its access check found. */
export function callerOfRequest(principal: Principal | undefined): Caller {
  if (!principal) throw new GatewayError(ErrorCode.Unauthorized, 'credentials are required');
  return callerOf(principal.user);
}
