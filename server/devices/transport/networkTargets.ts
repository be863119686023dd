/**
 * Where the gateway may be told to connect: a modem behind a serial server (`tcp://host:port`),
 * a HiLink stick's web API, an Android phone's app. Each is an address a caller of the API names,
 * and the gateway then connects there on its own, again and again: pointed at this computer or
 * the local network, it becomes a way into services that trust those. So such
 * targets are taken only while the setting `network.allow_private_targets` is on.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/** The setting that lets devices on this computer and the local network be added. */
export const privateTargetsSetting = 'network.allow_private_targets';
/** What the Settings screen calls it (renderer/src/settings/settingCatalogue.ts): the error names both. */
export const privateTargetsLabel = 'Allow devices on this computer and the local network';

/**
 * This computer and networks that are not the internet: "this network" 0/8 (0.0.0.0 reaches
 * this computer), RFC 1918, loopback, link-local (cloud metadata lives at 169.254.169.254), the
 * shared address space of RFC 6598 (carrier NAT, overlay VPNs); IPv6 unspecified, loopback,
 * unique-local (RFC 4193), link-local and the deprecated site-local. An IPv4 address written as
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is matched by the IPv4 ranges (node:net BlockList).
 */
const privateRanges = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
] as const) {
  privateRanges.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is of this computer or a network other than the internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface TargetPolicy {
  /** `network.allow_private_targets`: any address is taken, and nothing is looked up. */
  allowPrivate: boolean;
  /** Every address a host name has now; default: the system's resolver, as a connect uses it. */
  resolve?: (host: string) => Promise<string[]>;
}

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/**
 * Resolves unless `host` (a name, or an IP literal without brackets) leads to this computer or
 * a private network while the policy does not allow that: ValidationFailed naming `field`. A
 * name is checked by every address it has now; one that does not resolve cannot be checked, and
 * is refused the same way.
 */
export async function checkNetworkTarget(host: string, field: string, policy: TargetPolicy): Promise<void> {
  if (policy.allowPrivate) return;
  const refuse = (why: string): never => {
    throw new GatewayError(
      ErrorCode.ValidationFailed,
      `${field}: ${why}; devices there can be added once "${privateTargetsLabel}" is on in Settings (${privateTargetsSetting})`,
      { field },
    );
  };
  let addresses: string[] = [];
  try {
    addresses = isIP(host) === 0 ? await (policy.resolve ?? systemResolve)(host) : [host];
  } catch {
    // Handled below with an empty answer.
  }
  if (addresses.length === 0) {
    refuse(`${host} does not resolve, so it cannot be checked that it is no private address`);
  }
  const inside = addresses.find(isPrivateAddress);
  if (inside !== undefined) {
    refuse(
      inside === host
        ? `${host} is an address of this computer or a private network`
        : `${host} leads to ${inside}, an address of this computer or a private network`,
    );
  }
}

/** The host of an http(s) URL as a connect takes it: IPv6 without its brackets; undefined if none. */
export function hostOfUrl(url: string): string | undefined {
  try {
    const hostname = new URL(url).hostname;
    return hostname === '' ? undefined : hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return undefined;
  }
}
