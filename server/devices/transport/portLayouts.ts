/**
 * Which USB interface of a multi-port modem is which, in the spirit of ModemManager's port-type
 * rules: a modem exposes its AT command port beside DIAG/QCDM, GPS (NMEA), PPP and audio ports,
 * and only the AT primary port is the one to drive. Probing a DIAG port with "AT" is pointless
 * at best; a PPP port works but gets no unsolicited codes on most firmwares. Pure.
 *
 * Sources (linux-mobile-broadband/ModemManager):
 * - Quectel: src/plugins/quectel/77-mm-quectel-port-types.rules (EC21, EC25/EG25, EG91, EG95,
 *   BG96, EG06, EG12, RM500: if00 QCDM, if01 GPS, if02 AT primary, if03 AT secondary).
 * - SIMCom: src/plugins/simtech/77-mm-simtech-port-types.rules (SIM7000/7100/7600 1e0e:9001:
 *   if00 QCDM, if01 GPS, if02 AT primary, if03 AT secondary, if04 audio; SIM7070/7080/7090
 *   1e0e:9205: if02 AT primary, if03 PPP).
 * - ZTE: src/plugins/zte/77-mm-zte-port-types.rules (one AT primary/secondary pair per product).
 * - Huawei: src/plugins/huawei/mm-plugin-huawei.c, propagate_description_hints(): an interface
 *   described as "PC UI" is the AT primary port, "Modem" the PPP port. On Windows the same
 *   words are in the COM port's friendly name; "Application Interface" and "Diagnostics" there
 *   are the DIAG port.
 */
import type { SerialPortInfo } from './portDiscovery.js';

export type PortRole = 'at-primary' | 'at-secondary' | 'ppp' | 'diag' | 'gps' | 'audio';

interface InterfaceLayout {
  vendorId: string;
  productIds: readonly string[];
  interfaces: Readonly<Record<number, PortRole>>;
}

const qualcommLayout = { 0: 'diag', 1: 'gps', 2: 'at-primary', 3: 'at-secondary' } as const;

const interfaceLayouts: readonly InterfaceLayout[] = [
  {
    vendorId: '2c7c',
    productIds: ['0121', '0125', '0191', '0195', '0296', '0306', '0512', '0800'],
    interfaces: qualcommLayout,
  },
  { vendorId: '1e0e', productIds: ['9001'], interfaces: { ...qualcommLayout, 4: 'audio' } },
  { vendorId: '1e0e', productIds: ['9205'], interfaces: { 0: 'diag', 1: 'gps', 2: 'at-primary', 3: 'ppp' } },
  { vendorId: '19d2', productIds: ['0001'], interfaces: { 0: 'at-primary', 2: 'at-secondary' } },
  {
    vendorId: '19d2',
    productIds: ['0002', '0012', '0024', '0025'],
    interfaces: { 2: 'at-primary', 4: 'at-secondary' },
  },
  {
    vendorId: '19d2',
    productIds: ['0016', '0017', '0018', '0019', '0117'],
    interfaces: { 2: 'at-primary', 1: 'at-secondary' },
  },
  {
    vendorId: '19d2',
    productIds: ['0021', '0031', '0037', '0039', '0042', '0052', '0057', '0058', '0061', '0063', '0066'],
    interfaces: { 3: 'at-primary', 1: 'at-secondary' },
  },
];

/** Words in an interface description or a Windows friendly name, most specific first. */
const describedRoles: readonly [RegExp, PortRole][] = [
  [/pc\s?ui/i, 'at-primary'],
  // Quectel's and SIMCom's Windows drivers name their command port "… AT Port".
  [/\bat port\b/i, 'at-primary'],
  [/application interface|diagnostic|\bdiag\b|qcdm/i, 'diag'],
  [/\bgps\b|nmea/i, 'gps'],
  [/\bmodem\b/i, 'ppp'],
];

/**
 * The USB interface number: sysfs bInterfaceNumber when discovery read it, else from the
 * pnpId — Linux by-id names end in "-if02-port0" (or "-if02"), Windows ids carry "MI_02".
 */
export function interfaceNumberOf(port: SerialPortInfo): number | undefined {
  if (port.interfaceNumber !== undefined) return port.interfaceNumber;
  const match =
    /-if([0-9a-f]{2})(?:-|$)/i.exec(port.pnpId ?? '') ?? /MI_([0-9a-f]{2})/i.exec(port.pnpId ?? '');
  return match?.[1] === undefined ? undefined : Number.parseInt(match[1], 16);
}

/** The role of a port when its layout or its description is known. */
export function portRoleOf(port: SerialPortInfo): PortRole | undefined {
  const vendorId = port.vendorId?.toLowerCase();
  const productId = port.productId?.toLowerCase();
  const number = interfaceNumberOf(port);
  if (vendorId && productId && number !== undefined) {
    const layout = interfaceLayouts.find(
      (candidate) => candidate.vendorId === vendorId && candidate.productIds.includes(productId),
    );
    const role = layout?.interfaces[number];
    if (role) return role;
  }
  const description = [port.interfaceDescription, port.friendlyName].filter(Boolean).join(' ');
  return describedRoles.find(([pattern]) => pattern.test(description))?.[1];
}

/** Ports never worth an "AT": they carry another protocol (QCDM, NMEA, PCM audio). */
export function speaksAt(role: PortRole | undefined): boolean {
  return role !== 'diag' && role !== 'gps' && role !== 'audio';
}

const preference: readonly (PortRole | undefined)[] = ['at-primary', 'at-secondary', undefined, 'ppp'];

/**
 * The order to probe the ports of one modem: AT primary first, then secondary, then unknown
 * ones, PPP last; DIAG, GPS and audio ports are left out. Ties go by path in numeric order
 * (ttyUSB9 before ttyUSB10).
 */
export function probeOrder(ports: readonly SerialPortInfo[]): SerialPortInfo[] {
  return ports
    .map((port) => ({ port, role: portRoleOf(port) }))
    .filter(({ role }) => speaksAt(role))
    .sort(
      (left, right) =>
        preference.indexOf(left.role) - preference.indexOf(right.role) ||
        numericPathOrder(left.port.path, right.port.path),
    )
    .map(({ port }) => port);
}

/** "/dev/ttyUSB9" before "/dev/ttyUSB10", "COM3" before "COM10". */
export function numericPathOrder(left: string, right: string): number {
  return left.localeCompare(right, 'en', { numeric: true });
}
