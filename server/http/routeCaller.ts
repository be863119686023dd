import type { Principal } from '../auth/accessControl.js';
import { callerOf } from '../auth/appDirectory.js';
import type { Caller } from '../domain/caller.js';
import { ErrorCode, GatewayError } from '../errors/gatewayError.js';

/** The caller a route passes to the services: the principal its access check found. */
export function callerOfRequest(principal: Principal | undefined): Caller {
  if (!principal) throw new GatewayError(ErrorCode.Unauthorized, 'credentials are required');
  return callerOf(principal.user);
}
