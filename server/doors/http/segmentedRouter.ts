import { Router } from '@koa/router';
import type Koa from 'koa';

/**
 * Routes grouped by their first path segment, one @koa/router per group. @koa/router tests every
 * route's pattern against every request: with each route at three bases and under its aliases
 * (about 200 patterns), that is a share of every request's CPU. A map lookup on the segment leaves
 * the few patterns that can match; within a group, routes keep their order, so what matches (and
 * what a 405 lists in Allow) is the same as with one router.
 *
 * `prefixes` are the paths routes are mounted under (the API bases and `/gateway/v1`): the group
 * of `/3rdparty/v1/messages/:id` is `/3rdparty/v1/messages`. Like @koa/router's default, the
 * lookup ignores case and a trailing slash.
 */
export class SegmentedRouter {
  private readonly groups = new Map<string, Koa.Middleware>();
  private readonly routers = new Map<string, Router>();
  private readonly prefixes: readonly string[];

  constructor(prefixes: readonly string[]) {
    // Longest first: `/api/3rdparty/v1` before a shorter prefix it might start with.
    this.prefixes = prefixes
      .filter((prefix) => prefix !== '')
      .map((prefix) => prefix.toLowerCase())
      .sort((a, b) => b.length - a.length);
  }

  register(path: string, methods: readonly string[], handler: Koa.Middleware): void {
    const group = this.groupOf(path);
    if (group.includes(':') || group.includes('*') || group.includes('(')) {
      throw new Error(`route ${path}: its first segment must be literal to be grouped`);
    }
    let router = this.routers.get(group);
    if (!router) {
      router = new Router();
      this.routers.set(group, router);
      // @koa/router types its middleware for the context it extends itself (`params`, `router`):
      // as with app.use(router.routes()), a plain Koa context is what it is given.
      const routes = router.routes() as unknown as Koa.Middleware;
      const allowedMethods = router.allowedMethods() as unknown as Koa.Middleware;
      this.groups.set(group, (ctx, next) => routes(ctx, () => allowedMethods(ctx, next)));
    }
    router.register(path, [...methods], handler);
  }

  get(path: string, handler: Koa.Middleware): void {
    this.register(path, ['GET'], handler);
  }

  middleware(): Koa.Middleware {
    return (ctx, next) => {
      const group = this.groups.get(this.groupOf(ctx.path));
      return group ? group(ctx, next) : next();
    };
  }

  /** The prefix the path starts with, if any, and the segment after it: `/3rdparty/v1/messages`. */
  private groupOf(path: string): string {
    const lower = path.toLowerCase();
    const prefix = this.prefixes.find((candidate) => lower.startsWith(`${candidate}/`)) ?? '';
    const start = prefix.length + 1;
    const end = lower.indexOf('/', start);
    return lower.slice(0, end === -1 ? lower.length : end);
  }
}
