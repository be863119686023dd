import type Koa from 'koa';
import { ErrorCode, GatewayError } from '../../errors/gatewayError.js';

/**
 * CSRF defence for every state-changing request (POST, PUT, PATCH, DELETE). A page on another
 * site can make a browser send a "simple" request — a form post, or fetch with a form or
 * text/plain body — without a CORS preflight, with the Basic credentials the browser cached.
 * So such a request is refused before it reaches a route when
 * - it names a simple-request content type (form, multipart, text/plain): 415, even when the
 *   route reads no body (`POST /gateway/v1/webhooks/{id}/test` once ran from a form post);
 * - its `Origin` is not this gateway's own origin nor one of the configured CORS origins, or
 *   `Sec-Fetch-Site` says it came from another site: 403.
 * API clients (curl, the official clients, Home Assistant) send no Origin and a JSON body.
 */
const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const simpleContentTypes = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

export function crossSiteGuard(corsOrigins: readonly string[]): Koa.Middleware {
  const trusted = new Set(corsOrigins);
  return async (ctx, next) => {
    if (!stateChanging.has(ctx.method)) {
      await next();
      return;
    }
    const contentType = ctx.get('content-type').split(';')[0]?.trim().toLowerCase() ?? '';
    if (simpleContentTypes.includes(contentType)) {
      throw new GatewayError(
        ErrorCode.UnsupportedMediaType,
        `body: content type ${contentType} is not accepted on ${ctx.method}; send application/json`,
        { field: 'body' },
      );
    }
    const origin = ctx.get('origin');
    const fetchSite = ctx.get('sec-fetch-site').toLowerCase();
    const trustedOrigin = origin !== '' && (trusted.has(origin) || isSameOrigin(origin, ctx.get('host')));
    if ((origin !== '' || fetchSite === 'cross-site') && !trustedOrigin) {
      throw new GatewayError(
        ErrorCode.Forbidden,
        `requests from another site are refused (Origin ${JSON.stringify(origin || '(none)')}); ` +
          'allow the origin with the cors-origins option',
      );
    }
    await next();
  };
}

/** The page that sent the request was served by this gateway, at the address the request names. */
function isSameOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && url.host.toLowerCase() === host.trim().toLowerCase();
  } catch {
    return false;
  }
}
