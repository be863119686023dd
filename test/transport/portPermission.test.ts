import { describe, expect, it } from 'vitest';
import {
  type PortFileFacts,
  portAccessFix,
  serialGroupFor,
} from '../../server/devices/transport/portPermission.js';

describe('the group a user joins to open a serial port', () => {
  const debianGroups = ['root', 'uucp', 'dialout', 'plugdev'];
  const archGroups = ['root', 'uucp', 'lock'];
  it.each<[string, string, PortFileFacts]>([
    // systemd's rules.d/50-udev-default.rules.in: SUBSYSTEM=="tty", KERNEL=="tty[A-Z]*[0-9]|…", GROUP="dialout".
    [
      'a Debian port (root:dialout 0660)',
      'dialout',
      { owningGroup: 'dialout', groupMayReadWrite: true, groupNames: debianGroups },
    ],
    // Arch's systemd package: 0001-Use-Arch-Linux-device-access-groups.patch maps dialout → uucp.
    [
      'an Arch port (root:uucp 0660)',
      'uucp',
      { owningGroup: 'uucp', groupMayReadWrite: true, groupNames: archGroups },
    ],
    [
      'a port of an unknown file, on Debian',
      'dialout',
      { groupMayReadWrite: false, groupNames: debianGroups },
    ],
    ['a port of an unknown file, on Arch', 'uucp', { groupMayReadWrite: false, groupNames: archGroups }],
    [
      'a root-only port (root:root 0600)',
      'dialout',
      { owningGroup: 'root', groupMayReadWrite: false, groupNames: debianGroups },
    ],
    [
      'a port whose group may only read it',
      'dialout',
      { owningGroup: 'plugdev', groupMayReadWrite: false, groupNames: debianGroups },
    ],
  ])('%s: %s', (_name, group, facts) => {
    expect(serialGroupFor(facts)).toBe(group);
  });

  it('is a command only on Linux: elsewhere "access denied" means another program holds the port', () => {
    expect(portAccessFix('/dev/ttyUSB0', 'linux')).toMatch(/^sudo usermod -aG \w+ \$USER$/);
    expect(portAccessFix('COM3', 'win32')).toBeUndefined();
    expect(portAccessFix('/dev/cu.usbmodem1', 'darwin')).toBeUndefined();
  });
});
