import { networkInterfaces } from 'node:os';

/**
 * A HiLink stick shows up as a network adapter, not a serial port: it runs DHCP on
 * 192.168.8.0/24 and serves its web API at 192.168.8.1 (the address huawei-lte-api's
 * README.md connects to). A local IPv4 address in that network is the sign of one.
 */
export const defaultHiLinkUrl = 'http://192.168.8.1';

export interface HiLinkAdapter {
  /** The OS name of the network interface, e.g. "eth1", "enx0c5b8f279a64", "Ethernet 3". */
  interfaceName: string;
  address: string;
  /** The web API the gateway would use. */
  url: string;
}

export function detectHiLinkAdapter(
  interfaces: ReturnType<typeof networkInterfaces> = networkInterfaces(),
): HiLinkAdapter | undefined {
  for (const [interfaceName, addresses] of Object.entries(interfaces)) {
    for (const entry of addresses ?? []) {
      if (entry.family === 'IPv4' && !entry.internal && entry.address.startsWith('192.168.8.')) {
        return { interfaceName, address: entry.address, url: defaultHiLinkUrl };
      }
    }
  }
  return undefined;
}
