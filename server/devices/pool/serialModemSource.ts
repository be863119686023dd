import { isTcpAddress } from '../../contract/domain/tcpAddress.js';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { SerialPortInfo } from '../transport/portDiscovery.js';
import { type PortRole, portRoleOf, probeOrder } from '../transport/portLayouts.js';
import type { Transport, TransportFactory } from '../transport/transport.js';

/** Where a driver gets its transport from: a serial port, or an in-memory simulated modem. */
export interface ModemSource {
  /** Port path or "simulated:N". */
  port: string;
  simulated?: boolean;
  usb?: UsbIdentity;
  /** Which interface of a multi-port modem the port is, when its layout is known. */
  readonly portRole?: PortRole;
  /** Opens (or finds again and opens) the modem's transport; rejects when it is not there. */
  openTransport: () => Promise<Transport>;
  /**
   * Connections that may open without anything answering `AT` with `OK` before the driver gives
   * the source up, while nothing there ever did: a network address may lead to any service,
   * which must not be called forever. Absent: a local port, tried until a modem
   * answers there (one may be plugged in at any time).
   */
  readonly silentConnectionLimit?: number;
}

/**
 * Enough for a serial server that takes a connection before its modem is up, few enough that a
 * service that is no modem is left alone soon (each try takes the synchronising `AT`s' time).
 */
const networkSilentConnectionLimit = 5;

export interface UsbIdentity {
  vendorId?: string;
  productId?: string;
  serialNumber?: string;
}

export interface SerialAccess {
  listPorts: () => Promise<SerialPortInfo[]>;
  createTransport: (port: { path: string; baudRate: number }) => Transport;
  /** Sends `AT` over a fresh transport and says whether `OK` came back. */
  probe: (factory: TransportFactory) => Promise<boolean>;
}

export function usbIdentityOf(port: SerialPortInfo): UsbIdentity | undefined {
  if (!port.vendorId && !port.productId && !port.serialNumber) return undefined;
  const usb: UsbIdentity = {};
  if (port.vendorId) usb.vendorId = port.vendorId.toLowerCase();
  if (port.productId) usb.productId = port.productId.toLowerCase();
  if (port.serialNumber) usb.serialNumber = port.serialNumber;
  return usb;
}

export function sameUsbDevice(left: UsbIdentity, right: UsbIdentity | undefined): boolean {
  return (
    right !== undefined &&
    left.vendorId === right.vendorId &&
    left.productId === right.productId &&
    left.serialNumber === right.serialNumber
  );
}

/**
 * A serial modem source. A USB modem is found again by vendor id, product id and serial
 * number after an unplug, even when the OS gave it another port name; among the several
 * interfaces such a modem exposes, the one that answers `AT` is taken (the last one used
 * first, then by role: AT primary before secondary, DIAG and GPS never). A port without USB
 * identity (a pty, a real UART) is reopened by its path.
 */
export function serialModemSource(
  access: SerialAccess,
  initial: { path: string; baudRate: number; usb?: UsbIdentity; probed?: boolean; role?: PortRole },
): ModemSource {
  let path = initial.path;
  let role = initial.role;
  let skipSearch = initial.probed ?? false;
  const usb = initial.usb;
  const open = (candidate: string) => access.createTransport({ path: candidate, baudRate: initial.baudRate });
  const source: ModemSource = {
    ...(isTcpAddress(initial.path) ? { silentConnectionLimit: networkSilentConnectionLimit } : {}),
    get port() {
      return path;
    },
    get portRole() {
      return role;
    },
    openTransport: async () => {
      if (!usb || skipSearch) {
        skipSearch = false;
        return open(path);
      }
      const candidates = probeOrder(
        (await access.listPorts()).filter((port) => sameUsbDevice(usb, usbIdentityOf(port))),
      ).sort((left, right) => Number(right.path === path) - Number(left.path === path));
      for (const candidate of candidates) {
        if (await access.probe(() => open(candidate.path))) {
          path = candidate.path;
          role = portRoleOf(candidate);
          return open(candidate.path);
        }
      }
      throw new GatewayError(
        ErrorCode.TransportOpenFailed,
        `USB modem ${usb.vendorId ?? '?'}:${usb.productId ?? '?'} ${usb.serialNumber ?? ''} is not connected`,
      );
    },
  };
  if (usb) source.usb = usb;
  return source;
}
