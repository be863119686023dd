/**
 * A USB modem's port this user may not open, as discovery meets it on a Linux PC where the user
 * is not in `dialout`: the REAL serialport binding's open(2) fails with EACCES. Only the listing
 * is given (udev lists no test file); opening and probing are the production `realSerialAccess`.
 */
import { mkdtemp, rename, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../server/clock/clock.js';
import { realSerialAccess } from '../../server/composition/serialAccess.js';
import type { SerialAccess } from '../../server/devices/pool/serialModemSource.js';
import { silentLogger } from '../../server/logging/logger.js';

/**
 * A file the kernel refuses to open for reading and writing to every user, root included
 * (proc_sys_permission: a read-only sysctl). A device file's mode stops no root, and the suites
 * may run as root.
 */
const refusedToEveryone = '/proc/sys/kernel/osrelease';

export interface RefusedUsbPort {
  /** The port's path, a link in a temporary folder named like a USB modem's port. */
  readonly path: string;
  /** Serial access for `createGateway`: lists the port once plugged in, opens it for real. */
  readonly serial: SerialAccess;
  /** The port appears in the list; the gateway's next scan (within 10 s) probes it. */
  plugIn(): void;
  /** Points the port at another file, as a fixed permission or a replugged modem would. */
  pointAt(target: string): Promise<void>;
  close(): Promise<void>;
}

export async function createRefusedUsbPort(): Promise<RefusedUsbPort> {
  const directory = await mkdtemp(join(tmpdir(), 'refused-port-'));
  const path = join(directory, 'ttyUSB0');
  await symlink(refusedToEveryone, path);
  let plugged = false;
  return {
    path,
    serial: {
      ...realSerialAccess(systemClock, silentLogger),
      // What serialport's list reports for a Huawei E3131 stick.
      listPorts: async () =>
        plugged ? [{ path, manufacturer: 'HUAWEI', vendorId: '12d1', productId: '1506' }] : [],
    },
    plugIn() {
      plugged = true;
    },
    async pointAt(target) {
      const next = `${path}.next`;
      await symlink(target, next);
      await rename(next, path);
    },
    close: () => rm(directory, { recursive: true, force: true }),
  };
}
