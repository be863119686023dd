/**
 * `tcp://host:port`, the address of a modem behind a serial-over-IP server (ser2net in raw mode,
 * a network modem), as `--modem` and POST /gateway/v1/modems take it. Pure (the URL parser is a
 * global of Node and of browsers alike), so the Add-modem form checks an address the same way.
 */
export interface TcpAddress {
  /** A host name, an IPv4 address, or an IPv6 address without its brackets. */
  host: string;
  port: number;
}

/** The form the refusals name. */
export const tcpAddressForm = 'tcp://<host>:<port>';

/** Names an address that is meant as a TCP endpoint rather than a serial port path. */
export function isTcpAddress(path: string): boolean {
  return path.startsWith('tcp://');
}

// RFC 1123 §2.1 host name: dot-separated labels of letters, digits and inner hyphens.
const hostLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
// The scheme as `isTcpAddress` tells it (lower case); the host up to the port's colon, or in brackets.
const addressShape = /^tcp:\/\/(\[[0-9A-Fa-f:.]+\]|[^:/?#@[\]\s]+):([1-9]\d{0,4})$/;

/**
 * Host and port of `tcp://host:port`; undefined for anything else: no port or port 0, a port
 * above 65535 or with leading zeros, a path, query, user or second colon, a host that is neither
 * a host name nor an IP literal (`tcp://[::1]:2000` for IPv6).
 */
export function parseTcpAddress(address: string): TcpAddress | undefined {
  const match = addressShape.exec(address);
  const [, rawHost = '', rawPort = ''] = match ?? [];
  const port = Number(rawPort);
  if (!match || port > 65_535) return undefined;
  if (rawHost.startsWith('['))
    return isIpv6Literal(rawHost) ? { host: rawHost.slice(1, -1), port } : undefined;
  return isHostName(rawHost) || isIpv4(rawHost) ? { host: rawHost, port } : undefined;
}

function isIpv4(host: string): boolean {
  const parts = host.split('.');
  return parts.length === 4 && parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255);
}

/** A name, not digits and dots only: `999.1.1.1` is a bad IPv4 address, not a host name. */
function isHostName(host: string): boolean {
  const labels = host.split('.');
  return (
    host.length <= 253 &&
    labels.every((label) => hostLabel.test(label)) &&
    !labels.every((label) => /^\d+$/.test(label))
  );
}

/** `[…]` as the URL parser takes it (RFC 3986 §3.2.2 IPv6address, no zone id). */
function isIpv6Literal(bracketed: string): boolean {
  try {
    return new URL(`http://${bracketed}/`).hostname.startsWith('[');
  } catch {
    return false;
  }
}
