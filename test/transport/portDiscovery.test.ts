import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSerialPorts } from '../../server/devices/transport/portDiscovery.js';

/** A scratch /dev and /sys with a Huawei stick (ttyUSB0, by-id link) and a CDC-ACM modem. */
async function buildTree(root: string) {
  const dev = join(root, 'dev');
  const sys = join(root, 'sys');
  await mkdir(join(dev, 'serial', 'by-id'), { recursive: true });
  for (const name of ['ttyUSB0', 'ttyUSB2', 'ttyUSB10', 'ttyACM0', 'ttyS0', 'null']) {
    await writeFile(join(dev, name), '');
  }
  await symlink('../../ttyUSB0', join(dev, 'serial', 'by-id', 'usb-HUAWEI_E1752-if00-port0'));
  // Real sysfs: class/tty/<name>/device points at the USB interface; the device is its parent.
  const huawei = join(sys, 'devices', 'usb1', '1-1');
  await mkdir(join(huawei, '1-1:1.0', 'ttyUSB0'), { recursive: true });
  await writeFile(join(huawei, 'idVendor'), '12D1\n');
  await writeFile(join(huawei, 'idProduct'), '1001\n');
  await writeFile(join(huawei, 'manufacturer'), 'HUAWEI Technology\n');
  await writeFile(join(huawei, 'serial'), 'ABC123\n');
  const acm = join(sys, 'devices', 'usb1', '1-2');
  await mkdir(join(acm, '1-2:1.0'), { recursive: true });
  await writeFile(join(acm, 'idVendor'), '2c7c\n');
  await writeFile(join(acm, 'idProduct'), '0125\n');
  for (const [name, target] of [
    ['ttyUSB0', join(huawei, '1-1:1.0', 'ttyUSB0')],
    ['ttyACM0', join(acm, '1-2:1.0')],
  ] as const) {
    await mkdir(join(sys, 'class', 'tty', name), { recursive: true });
    await symlink(target, join(sys, 'class', 'tty', name, 'device'));
  }
  return { dev, sys };
}

describe('listSerialPorts', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'port-discovery-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('scans /dev and sysfs instead of calling serialport when udevadm is not on PATH', async () => {
    const { dev, sys } = await buildTree(root);
    let serialportCalled = false;
    const ports = await listSerialPorts({
      platform: 'linux',
      searchPath: join(root, 'empty-bin'),
      devDir: dev,
      sysDir: sys,
      listWithSerialport: async () => {
        serialportCalled = true;
        return [];
      },
    });
    expect(serialportCalled).toBe(false);
    expect(ports).toEqual([
      { path: join(dev, 'ttyACM0'), vendorId: '2c7c', productId: '0125' },
      {
        path: join(dev, 'ttyUSB0'),
        vendorId: '12d1',
        productId: '1001',
        manufacturer: 'HUAWEI Technology',
        serialNumber: 'ABC123',
        pnpId: 'usb-HUAWEI_E1752-if00-port0',
      },
      { path: join(dev, 'ttyUSB2') },
      { path: join(dev, 'ttyUSB10') },
    ]);
  });

  it('asks serialport when udevadm is on PATH', async () => {
    const bin = join(root, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'udevadm'), '#!/bin/sh\n');
    await chmod(join(bin, 'udevadm'), 0o755);
    const ports = await listSerialPorts({
      platform: 'linux',
      searchPath: bin,
      listWithSerialport: async () => [{ path: '/dev/ttyUSB3', vendorId: '12d1' }],
    });
    expect(ports).toEqual([{ path: '/dev/ttyUSB3', vendorId: '12d1' }]);
  });

  it('falls back to the scan when serialport list() fails on Linux', async () => {
    const { dev, sys } = await buildTree(root);
    const bin = join(root, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'udevadm'), '#!/bin/sh\n');
    await chmod(join(bin, 'udevadm'), 0o755);
    const ports = await listSerialPorts({
      platform: 'linux',
      searchPath: bin,
      devDir: dev,
      sysDir: sys,
      listWithSerialport: async () => {
        throw new Error('spawn udevadm ENOENT');
      },
    });
    expect(ports.map((port) => port.path)).toHaveLength(4);
  });

  it('uses serialport on other platforms without looking for udevadm', async () => {
    const ports = await listSerialPorts({
      platform: 'win32',
      searchPath: '',
      listWithSerialport: async () => [{ path: 'COM3' }],
    });
    expect(ports).toEqual([{ path: 'COM3' }]);
  });

  it("lists this machine's ports without taking the process down", async () => {
    const ports = await listSerialPorts();
    expect(Array.isArray(ports)).toBe(true);
    for (const port of ports) expect(typeof port.path).toBe('string');
  });
});
