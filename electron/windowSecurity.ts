import type { BrowserWindow, Session } from 'electron';

/**
 * The window only ever shows our UI from the local core. Everything else is refused:
 * navigation elsewhere, new windows, permission prompts (camera, notifications from the page…).
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function isOwnUiUrl(url: string, baseUrl: string): boolean {
  try {
    const target = new URL(url);
    const base = new URL(baseUrl);
    return target.origin === base.origin && target.pathname.startsWith('/ui/');
  } catch {
    return false;
  }
}

export function lockDownSession(session: Session, baseUrl: string): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    if (details.url.startsWith(baseUrl)) headers['Content-Security-Policy'] = [contentSecurityPolicy];
    callback({ responseHeaders: headers });
  });
}

export function lockDownWindow(window: BrowserWindow, baseUrl: () => string | undefined): void {
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event, url) => {
    const base = baseUrl();
    if (!base || !isOwnUiUrl(url, base)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
}
