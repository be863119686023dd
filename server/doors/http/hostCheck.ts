import { hostname, networkInterfaces } from 'node:os';
import type Koa from 'koa';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';
import type { Logger } from '../../logging/logger.js';

/**
 * DNS-rebinding defence (docs/decisions.md#security-defaults): a web page on evil.example that
 * re-points its name at 127.0.0.1 still sends `Host: evil.example`; only requests naming one of our
 * own host names reach the API. The unspecified addresses are never a host name of ours, even when
 * listed: browsers deliver `http://0.0.0.0:<port>` to the local machine ("0.0.0.0-day").
 */
const unspecifiedAddresses = new Set(['0.0.0.0', '[::]']);

export function hostCheck(allowedHosts: readonly string[], logger: Logger): Koa.Middleware {
  const allowed = new Set(
    allowedHosts.map((name) => name.toLowerCase()).filter((name) => !unspecifiedAddresses.has(name)),
  );
  return async (ctx, next) => {
    const name = hostName(ctx.get('host'));
    if (!allowed.has(name)) {
      // The names we answer to are the machine's addresses and host name: the log tells the
      // person at the PC, the refusal tells a caller nothing it did not send.
      logger.warn('refused a request for a host name that is not ours', {
        host: name,
        allowedHosts: [...allowed].join(', '),
      });
      throw new GatewayError(
        ErrorCode.Forbidden,
        `host ${JSON.stringify(name)} is not allowed; call the gateway by a name it answers to ` +
          '(more names can be allowed with the allowed-hosts option)',
      );
    }
    await next();
  };
}

/** The host name of a Host header, without the port; IPv6 literals keep their brackets. */
export function hostName(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Loopback names plus the listen address. Listening on every interface (0.0.0.0 or ::), the
 * machine's own addresses and host name are allowed too, so LAN clients can use them.
 */
export function defaultAllowedHosts(listenHost: string): string[] {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (listenHost === '0.0.0.0' || listenHost === '::') {
    names.add(hostname().toLowerCase());
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) {
        names.add(address.family === 'IPv6' ? `[${address.address.toLowerCase()}]` : address.address);
      }
    }
  } else {
    names.add(listenHost.includes(':') ? `[${listenHost.toLowerCase()}]` : listenHost.toLowerCase());
  }
  return [...names];
}
