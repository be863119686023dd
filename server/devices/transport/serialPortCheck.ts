import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { isatty } from 'node:tty';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { SerialPortInfo } from './portDiscovery.js';

export interface SerialPortCheckOptions {
  platform?: NodeJS.Platform;
  /** The discovery's list (`listSerialPorts`). */
  listPorts: () => Promise<SerialPortInfo[]>;
}

/** `COM3`, or the device namespace form `\\.\COM12` needed above COM9 by some APIs. */
const windowsComPort = /^(\\\\\.\\)?COM[1-9]\d{0,2}$/i;

/**
 * Whether a path a user typed may be opened as a modem (security review 7: the gateway once
 * opened `/etc/shadow` read-write when run as root, told by its error whether a file existed,
 * and kept the entry). Accepted: a port the discovery lists, `COMn` on Windows, and elsewhere a
 * character device that is a terminal — a serial port or a pty (checked with isatty on a
 * read-only, non-blocking descriptor, so nothing is written to a device that is not one). Every
 * refusal is the same error, so the answer says nothing about what exists on the machine.
 */
export async function checkSerialPortPath(path: string, options: SerialPortCheckOptions): Promise<void> {
  const platform = options.platform ?? process.platform;
  const listed = await options.listPorts().then(
    (ports) => ports.some((port) => port.path === path),
    () => false,
  );
  if (listed) return;
  if (platform === 'win32' ? windowsComPort.test(path) : await isTerminalDevice(path)) return;
  throw new GatewayError(
    ErrorCode.ValidationFailed,
    'path: not a serial port of this computer; pick one from GET /gateway/v1/serial-ports',
    { field: 'path' },
  );
}

async function isTerminalDevice(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isCharacterDevice()) return false;
    const handle = await open(path, constants.O_RDONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
    try {
      return isatty(handle.fd);
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}
