import type Koa from 'koa';

/**
 * CORS only for the origins the user listed, none by default (docs/decisions.md#security-defaults).
 * Preflights are answered here, before authentication: browsers never send credentials on them.
 */
export function cors(origins: readonly string[]): Koa.Middleware {
  const allowed = new Set(origins);
  return async (ctx, next) => {
    const origin = ctx.get('origin');
    if (!origin || !allowed.has(origin)) {
      await next();
      return;
    }
    ctx.vary('Origin');
    ctx.set('Access-Control-Allow-Origin', origin);
    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
      ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    ctx.set('Access-Control-Expose-Headers', 'Location, X-Total-Count, Retry-After');
    await next();
  };
}
