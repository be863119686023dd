import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SegmentedRouter } from '../../server/doors/http/segmentedRouter.js';

/** Answers with which route ran and the parameters it saw. */
const answer =
  (route: string): Koa.Middleware =>
  (ctx) => {
    ctx.body = { route, params: (ctx as Koa.Context & { params?: Record<string, string> }).params ?? {} };
  };

describe('SegmentedRouter', () => {
  let base = '';
  let close: () => void = () => undefined;

  beforeAll(async () => {
    const router = new SegmentedRouter(['', '/3rdparty/v1', '/api/3rdparty/v1', '/gateway/v1']);
    router.get('/', answer('root'));
    router.register('/messages', ['GET', 'POST'], answer('messages'));
    router.register('/messages/inbox', ['GET'], answer('messages inbox'));
    router.register('/messages/:id', ['GET', 'DELETE'], answer('message'));
    router.register('/3rdparty/v1/messages/:id', ['GET'], answer('3rdparty message'));
    router.register('/api/3rdparty/v1/messages', ['POST'], answer('api messages'));
    router.register('/gateway/v1/contacts/import', ['POST'], answer('contacts import'));
    router.register('/gateway/v1/contacts/:id', ['GET'], answer('contact'));
    const app = new Koa();
    app.use(router.middleware());
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const call = async (method: string, path: string) => {
    const response = await fetch(`${base}${path}`, { method });
    const text = await response.text();
    return {
      status: response.status,
      allow: response.headers.get('allow'),
      body: text.startsWith('{')
        ? (JSON.parse(text) as { route: string; params: Record<string, string> })
        : text,
    };
  };

  it('finds each route under its prefix, with its parameters', async () => {
    expect((await call('GET', '/')).body).toEqual({ route: 'root', params: {} });
    expect((await call('POST', '/messages')).body).toMatchObject({ route: 'messages' });
    expect((await call('GET', '/messages/abc')).body).toEqual({ route: 'message', params: { id: 'abc' } });
    expect((await call('GET', '/3rdparty/v1/messages/x1')).body).toEqual({
      route: '3rdparty message',
      params: { id: 'x1' },
    });
    expect((await call('POST', '/api/3rdparty/v1/messages')).body).toMatchObject({ route: 'api messages' });
    expect((await call('POST', '/gateway/v1/contacts/import')).body).toMatchObject({
      route: 'contacts import',
    });
    expect((await call('GET', '/gateway/v1/contacts/c7')).body).toEqual({
      route: 'contact',
      params: { id: 'c7' },
    });
  });

  it('keeps the order of a group: the route registered first wins where two match', async () => {
    expect((await call('GET', '/messages/inbox')).body).toMatchObject({ route: 'messages inbox' });
  });

  it('ignores case and a trailing slash, as @koa/router does', async () => {
    expect((await call('GET', '/Messages/')).body).toMatchObject({ route: 'messages' });
    expect((await call('GET', '/3RDPARTY/v1/MESSAGES/Ab')).body).toEqual({
      route: '3rdparty message',
      params: { id: 'Ab' },
    });
  });

  it('answers 405 with the methods of the path in Allow, and 404 where no route is', async () => {
    const wrongMethod = await call('PUT', '/messages/abc');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.allow?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD']);
    expect((await call('GET', '/nothing/here')).status).toBe(404);
    expect((await call('GET', '/3rdparty/v1')).status).toBe(404);
    expect((await call('GET', '/gateway/v1/unknown')).status).toBe(404);
  });

  it('refuses a route whose first segment is a parameter: it could not be grouped', () => {
    const router = new SegmentedRouter(['']);
    expect(() => router.register('/:anything', ['GET'], answer('x'))).toThrow(
      /first segment must be literal/,
    );
  });
});
