/**
 * Finds serial ports that may hold a modem (asking one with `AT` is `server/devices/pool/modemProbe.ts`,
 * above the AT session).
 *
 * On Linux, serialport's list() shells out to `udevadm`; where udev is absent (containers, minimal
 * distributions) the spawn fails with an unhandled `spawn udevadm ENOENT` that takes the whole
 * process down. So udevadm is looked up on PATH first, and without it the ports are found by
 * scanning /dev (by-id links, ttyUSB*, ttyACM*) with USB ids read from sysfs: the
 * vendor/product/serial triple is what finds a modem again after a replug
 * (docs/decisions.md#usb-identity).
 */
import { constants } from 'node:fs';
import { access, readdir, readFile, readlink, realpath } from 'node:fs/promises';
import { basename, delimiter, join, resolve as resolvePath } from 'node:path';
import { type Logger, silentLogger } from '../../logging/logger.js';
import { numericPathOrder } from './portLayouts.js';

export interface SerialPortInfo {
  path: string;
  manufacturer?: string;
  vendorId?: string;
  productId?: string;
  serialNumber?: string;
  pnpId?: string;
  /** Windows: the COM port's name in Device Manager, e.g. "HUAWEI Mobile Connect - 3G PC UI Interface (COM5)". */
  friendlyName?: string;
  /** Linux: the USB interface (sysfs bInterfaceNumber) and its description string. */
  interfaceNumber?: number;
  interfaceDescription?: string;
}

export interface PortDiscoveryOptions {
  platform?: NodeJS.Platform;
  /** PATH to search for udevadm (default: process.env.PATH). */
  searchPath?: string;
  /** Where device nodes live (default /dev); tests point it at a scratch tree. */
  devDir?: string;
  /** Where sysfs is mounted (default /sys). */
  sysDir?: string;
  /** serialport's list(), injectable so the scan fallback can be exercised anywhere. */
  listWithSerialport?: () => Promise<SerialPortInfo[]>;
  logger?: Logger;
}

export async function listSerialPorts(options: PortDiscoveryOptions = {}): Promise<SerialPortInfo[]> {
  const platform = options.platform ?? process.platform;
  const log = (options.logger ?? silentLogger).child('discovery');
  const canUseSerialport =
    platform !== 'linux' || (await isOnPath('udevadm', options.searchPath ?? process.env.PATH));
  if (canUseSerialport) {
    try {
      const ports = await (options.listWithSerialport ?? listWithSerialport)();
      if (platform !== 'linux') return ports;
      const sysDir = options.sysDir ?? '/sys';
      return Promise.all(
        ports.map(async (port) => ({ ...port, ...(await usbInterface(sysDir, basename(port.path))) })),
      );
    } catch (error) {
      log.warn('serialport list() failed; scanning device nodes instead', { error });
      if (platform !== 'linux') return [];
    }
  } else {
    log.debug('udevadm not on PATH; scanning device nodes');
  }
  return scanLinuxDevices(options.devDir ?? '/dev', options.sysDir ?? '/sys');
}

async function listWithSerialport(): Promise<SerialPortInfo[]> {
  const { SerialPort } = await import('serialport');
  const ports = await SerialPort.list();
  return ports.map((port) => {
    const info: SerialPortInfo = { path: port.path };
    // The Windows binding adds friendlyName, which serialport's types do not declare.
    const friendlyName = (port as { friendlyName?: unknown }).friendlyName;
    if (typeof friendlyName === 'string' && friendlyName.length > 0) info.friendlyName = friendlyName;
    if (port.manufacturer) info.manufacturer = port.manufacturer;
    if (port.vendorId) info.vendorId = port.vendorId.toLowerCase();
    if (port.productId) info.productId = port.productId.toLowerCase();
    if (port.serialNumber) info.serialNumber = port.serialNumber;
    if (port.pnpId) info.pnpId = port.pnpId;
    return info;
  });
}

async function isOnPath(command: string, searchPath: string | undefined): Promise<boolean> {
  for (const dir of (searchPath ?? '').split(delimiter)) {
    if (dir.length === 0) continue;
    try {
      await access(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

/**
 * /dev/serial/by-id/<pnpId> links first (they name the USB device and interface), then any
 * ttyUSB* / ttyACM* node not already found through a link.
 */
async function scanLinuxDevices(devDir: string, sysDir: string): Promise<SerialPortInfo[]> {
  const byId = new Map<string, string>();
  const byIdDir = join(devDir, 'serial', 'by-id');
  for (const name of await listDir(byIdDir)) {
    try {
      const target = resolvePath(byIdDir, await readlink(join(byIdDir, name)));
      byId.set(target, name);
    } catch {
      // a dangling or non-link entry: skip it
    }
  }
  const nodes = (await listDir(devDir)).filter((name) => /^tty(USB|ACM)\d+$/.test(name)).sort(naturalOrder);
  const ports: SerialPortInfo[] = [];
  for (const name of nodes) {
    const path = join(devDir, name);
    const info: SerialPortInfo = {
      path,
      ...(await usbIdentity(sysDir, name)),
      ...(await usbInterface(sysDir, name)),
    };
    const pnpId = byId.get(path);
    if (pnpId) info.pnpId = pnpId;
    ports.push(info);
  }
  return ports;
}

/** Walks up from /sys/class/tty/<name>/device to the USB device that holds idVendor. */
async function usbIdentity(sysDir: string, name: string): Promise<Omit<SerialPortInfo, 'path'>> {
  let dir: string;
  try {
    dir = await realpath(join(sysDir, 'class', 'tty', name, 'device'));
  } catch {
    return {};
  }
  for (let depth = 0; depth < 4 && dir !== '/'; depth++) {
    const vendorId = await readAttribute(dir, 'idVendor');
    if (vendorId !== undefined) {
      const identity: Omit<SerialPortInfo, 'path'> = { vendorId: vendorId.toLowerCase() };
      const productId = await readAttribute(dir, 'idProduct');
      const manufacturer = await readAttribute(dir, 'manufacturer');
      const serialNumber = await readAttribute(dir, 'serial');
      if (productId !== undefined) identity.productId = productId.toLowerCase();
      if (manufacturer !== undefined) identity.manufacturer = manufacturer;
      if (serialNumber !== undefined) identity.serialNumber = serialNumber;
      return identity;
    }
    dir = join(dir, '..');
  }
  return {};
}

/**
 * The USB interface a tty belongs to: /sys/class/tty/<name>/device is the interface itself
 * (cdc-acm) or a child of it (usb-serial's ttyUSB), which holds bInterfaceNumber.
 */
async function usbInterface(
  sysDir: string,
  name: string,
): Promise<Pick<SerialPortInfo, 'interfaceNumber' | 'interfaceDescription'>> {
  let dir: string;
  try {
    dir = await realpath(join(sysDir, 'class', 'tty', name, 'device'));
  } catch {
    return {};
  }
  for (let depth = 0; depth < 2 && dir !== '/'; depth++) {
    const number = await readAttribute(dir, 'bInterfaceNumber');
    if (number !== undefined && /^[0-9a-f]+$/i.test(number)) {
      const found: Pick<SerialPortInfo, 'interfaceNumber' | 'interfaceDescription'> = {
        interfaceNumber: Number.parseInt(number, 16),
      };
      const description = await readAttribute(dir, 'interface');
      if (description !== undefined) found.interfaceDescription = description;
      return found;
    }
    dir = join(dir, '..');
  }
  return {};
}

async function readAttribute(dir: string, name: string): Promise<string | undefined> {
  try {
    const value = (await readFile(join(dir, name), 'utf8')).trim();
    return value.length > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

/** ttyUSB2 before ttyUSB10. */
function naturalOrder(a: string, b: string): number {
  return numericPathOrder(basename(a), basename(b));
}
