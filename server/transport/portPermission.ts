import { ErrorCode, GatewayError, isGatewayError } from '../errors/gatewayError.js';

/**
 * Linux gives serial devices (/dev/ttyUSB*, /dev/ttyACM*) to the `dialout` group; a user outside
 * it gets EACCES ("Permission denied") when opening one. The group applies from the next login.
 */
export const dialoutFixCommand = 'sudo usermod -aG dialout $USER';

/** Whether opening a port failed because the OS refused this user, not because nothing is there. */
export function isPermissionRefusal(error: unknown): boolean {
  return isGatewayError(error, ErrorCode.TransportAccessDenied);
}

/** The refusal as an error that says what is wrong and the command that fixes it. */
export function portPermissionError(port: string, cause: unknown): GatewayError {
  return new GatewayError(
    ErrorCode.TransportAccessDenied,
    `${port} may be a modem, but this user may not open it (permission denied). Serial ports belong to the dialout group: run "${dialoutFixCommand}", then log out and back in.`,
    { cause },
  );
}
