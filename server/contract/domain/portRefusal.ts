import type { ErrorCode } from '../../errors/gatewayError.js';

/**
 * A serial port that port discovery found but this user may not open: most likely the modem just
 * plugged in (GET /gateway/v1/serial-ports/refused, the desktop's first-run panel). Pure.
 */
export interface RefusedPort {
  path: string;
  /** The GatewayError code the open failed with (its name in `ErrorCode`). */
  code: RefusedPortCode;
  /**
   * The command that lets this user open the port on this OS; absent where no command does
   * (on Windows "Access denied" means another program holds the port).
   */
  fix?: string;
}

export const RefusedPortCodes = [
  'TransportAccessDenied',
] as const satisfies readonly (keyof typeof ErrorCode)[];
export type RefusedPortCode = (typeof RefusedPortCodes)[number];

/**
 * Linux gives serial devices (/dev/ttyUSB*, /dev/ttyACM*) to a group: `dialout` on Debian,
 * Ubuntu and Fedora, `uucp` on Arch. Membership applies from the next login.
 */
export const defaultSerialGroup = 'dialout';

/** The command that puts the current user in `group`. */
export function joinGroupCommand(group: string): string {
  return `sudo usermod -aG ${group} $USER`;
}

/** A refused port in words, for the log and GET /health. */
export function describePortRefusal(refused: Pick<RefusedPort, 'path' | 'fix'>): string {
  const what = `${refused.path} may be a modem, but this user may not open it (permission denied).`;
  return refused.fix === undefined
    ? `${what} Another program may hold it.`
    : `${what} Run "${refused.fix}", then log out and back in.`;
}
