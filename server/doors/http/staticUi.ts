import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type Koa from 'koa';
import { contentSecurityPolicy } from './contentSecurityPolicy.js';

/**
 * Serves the built React UI at `/ui/`. Paths without a file behind them get index.html, so the
 * UI's client-side routes (`/ui/messages/abc`) survive a reload. Nothing outside the directory
 * is ever served.
 */
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export const uiPrefix = '/ui';

export function staticUi(directory: string): Koa.Middleware {
  const root = normalize(directory);
  return async (ctx, next) => {
    // Browsers ask for /favicon.ico on their own, whatever the page links: point them at the UI's.
    if (ctx.path === '/favicon.ico' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.redirect(`${uiPrefix}/favicon.svg`);
      return;
    }
    if (ctx.path !== uiPrefix && !ctx.path.startsWith(`${uiPrefix}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === uiPrefix) {
      ctx.redirect(`${uiPrefix}/`);
      return;
    }
    const relative = decodePath(ctx.path.slice(uiPrefix.length + 1));
    if (relative === undefined) return next();
    const file = await existingFile(root, relative);
    // Assets that are missing are 404; anything else is a client route of the single-page app.
    if (!file && extname(relative) !== '') return next();
    const served = file ?? join(root, 'index.html');
    const info = await stat(served).catch(() => undefined);
    if (!info?.isFile()) return next();
    // A HEAD answer carries the headers only: never open the file for it.
    if (ctx.method === 'HEAD') {
      ctx.body = null;
      ctx.status = 200;
    } else {
      ctx.body = createReadStream(served);
    }
    ctx.type = contentTypes[extname(served)] ?? 'application/octet-stream';
    ctx.length = info.size;
    ctx.set('Content-Security-Policy', contentSecurityPolicy);
    // Vite fingerprints asset names; index.html must always be re-read to pick up a new build.
    ctx.set(
      'Cache-Control',
      served.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
    );
  };
}

async function existingFile(root: string, relative: string): Promise<string | undefined> {
  if (relative === '' || relative.includes('\0')) return undefined;
  const candidate = normalize(join(root, relative));
  if (!candidate.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return undefined;
  const info = await stat(candidate).catch(() => undefined);
  return info?.isFile() ? candidate : undefined;
}

/** A malformed escape (`%E0%A4%A`) names no file: undefined rather than a URIError (500). */
function decodePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}
