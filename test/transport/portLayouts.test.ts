import { describe, expect, it } from 'vitest';
import type { SerialPortInfo } from '../../server/devices/transport/portDiscovery.js';
import { interfaceNumberOf, portRoleOf, probeOrder } from '../../server/devices/transport/portLayouts.js';

const ec25 = (path: string, interfaceNumber: number): SerialPortInfo => ({
  path,
  vendorId: '2c7c',
  productId: '0125',
  serialNumber: 'EC25SN',
  pnpId: `usb-Quectel_EC25-if0${interfaceNumber}-port0`,
});

describe('port roles of multi-port modems', () => {
  it.each([
    ['Quectel EC25 if02 (Linux by-id)', ec25('/dev/ttyUSB2', 2), 'at-primary'],
    ['Quectel EC25 if00', ec25('/dev/ttyUSB0', 0), 'diag'],
    ['Quectel EC25 if01', ec25('/dev/ttyUSB1', 1), 'gps'],
    ['Quectel EC25 if03', ec25('/dev/ttyUSB3', 3), 'at-secondary'],
    [
      'Quectel EC25 on Windows (MI_02)',
      {
        path: 'COM9',
        vendorId: '2c7c',
        productId: '0125',
        pnpId: 'USB\\VID_2C7C&PID_0125&MI_02\\6&1A2B3C4D&0&0002',
      },
      'at-primary',
    ],
    [
      'SIMCom SIM7600 if02',
      { path: '/dev/ttyUSB2', vendorId: '1e0e', productId: '9001', interfaceNumber: 2 },
      'at-primary',
    ],
    [
      'SIMCom SIM7600 if04',
      { path: '/dev/ttyUSB4', vendorId: '1e0e', productId: '9001', interfaceNumber: 4 },
      'audio',
    ],
    [
      'ZTE K3565-Z (19d2:0063) if03',
      { path: '/dev/ttyUSB3', vendorId: '19d2', productId: '0063', interfaceNumber: 3 },
      'at-primary',
    ],
    [
      'Huawei PC UI on Windows',
      {
        path: 'COM5',
        vendorId: '12d1',
        productId: '1506',
        friendlyName: 'HUAWEI Mobile Connect - 3G PC UI Interface (COM5)',
      },
      'at-primary',
    ],
    [
      'Huawei "Application Interface" on Windows (its DIAG port)',
      {
        path: 'COM6',
        vendorId: '12d1',
        productId: '1506',
        friendlyName: 'HUAWEI Mobile Connect - 3G Application Interface (COM6)',
      },
      'diag',
    ],
    [
      'Huawei modem port on Linux (interface description)',
      { path: '/dev/ttyUSB0', vendorId: '12d1', productId: '1506', interfaceDescription: 'Modem' },
      'ppp',
    ],
  ] as [string, SerialPortInfo, string][])('%s is %s', (_name, port, role) => {
    expect(portRoleOf(port)).toBe(role);
  });

  it('knows nothing about a port without layout or description', () => {
    expect(portRoleOf({ path: '/dev/ttyS0' })).toBeUndefined();
    expect(interfaceNumberOf({ path: '/dev/ttyS0' })).toBeUndefined();
  });

  it('probes the AT primary port first, leaves DIAG and GPS out, and puts ttyUSB9 before ttyUSB10', () => {
    const order = probeOrder([
      ec25('/dev/ttyUSB10', 3),
      ec25('/dev/ttyUSB8', 0),
      ec25('/dev/ttyUSB9', 1),
      ec25('/dev/ttyUSB11', 2),
    ]).map((port) => port.path);
    expect(order).toEqual(['/dev/ttyUSB11', '/dev/ttyUSB10']);
    expect(
      probeOrder([{ path: '/dev/ttyUSB10' }, { path: '/dev/ttyUSB9' }]).map((port) => port.path),
    ).toEqual(['/dev/ttyUSB9', '/dev/ttyUSB10']);
  });
});
