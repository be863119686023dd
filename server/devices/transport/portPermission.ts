import { readFileSync, statSync } from 'node:fs';
import {
  defaultSerialGroup,
  describePortRefusal,
  joinGroupCommand,
} from '../../contract/domain/portRefusal.js';
import { ErrorCode, GatewayError, isGatewayError } from '../../errors/gatewayError.js';

/** Whether opening a port failed because the OS refused this user, not because nothing is there. */
export function isPermissionRefusal(error: unknown): boolean {
  return isGatewayError(error, ErrorCode.TransportAccessDenied);
}

/** What this machine says about a port's device file: its owning group and mode bits. */
export interface PortFileFacts {
  /** Name of the group owning the device file, when it can be read. */
  owningGroup?: string;
  /** Whether that group may read and write it. */
  groupMayReadWrite: boolean;
  /** Every group name in /etc/group. */
  groupNames: readonly string[];
}

/**
 * The group a user must join to open the port: the one owning the device file when it grants
 * read and write (udev's rule on every distribution), else the distribution's serial group —
 * `dialout`, or `uucp` where only that exists (Arch).
 */
export function serialGroupFor(facts: PortFileFacts): string {
  const { owningGroup } = facts;
  if (owningGroup !== undefined && owningGroup !== 'root' && facts.groupMayReadWrite) return owningGroup;
  if (!facts.groupNames.includes(defaultSerialGroup) && facts.groupNames.includes('uucp')) return 'uucp';
  return defaultSerialGroup;
}

/** The command that lets this user open `path`; undefined off Linux (see `RefusedPort.fix`). */
export function portAccessFix(
  path: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  return platform === 'linux' ? joinGroupCommand(serialGroupFor(portFileFacts(path))) : undefined;
}

/** The refusal as an error that says what is wrong and the command that fixes it. */
export function portPermissionError(port: string, cause: unknown): GatewayError {
  return new GatewayError(
    ErrorCode.TransportAccessDenied,
    describePortRefusal({ path: port, fix: portAccessFix(port) }),
    {
      cause,
    },
  );
}

function portFileFacts(path: string): PortFileFacts {
  const groups = readGroupFile();
  try {
    const stat = statSync(path);
    const owningGroup = groups.find((group) => group.gid === stat.gid)?.name;
    // 0o060: read and write for the group.
    const groupMayReadWrite = (stat.mode & 0o060) === 0o060;
    return {
      ...(owningGroup === undefined ? {} : { owningGroup }),
      groupMayReadWrite,
      groupNames: groups.map((group) => group.name),
    };
  } catch {
    return { groupMayReadWrite: false, groupNames: groups.map((group) => group.name) };
  }
}

/** /etc/group lines are `name:password:gid:members`. */
function readGroupFile(): { name: string; gid: number }[] {
  try {
    return readFileSync('/etc/group', 'utf8')
      .split('\n')
      .map((line) => line.split(':'))
      .filter((fields) => fields.length >= 3 && fields[0] !== '')
      .map((fields) => ({ name: fields[0] ?? '', gid: Number(fields[2]) }));
  } catch {
    return [];
  }
}
