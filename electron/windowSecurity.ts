import type { BrowserWindow, Session } from 'electron';

/**
 * The window only ever shows our UI from the local core. Everything else is refused:
 * navigation elsewhere, new windows, permission prompts (camera, notifications from the page…).
 * The core serves the UI with its Content-Security-Policy header (server/doors/http/contentSecurityPolicy.ts).
 */
export function isOwnUiUrl(url: string, baseUrl: string): boolean {
  try {
    const target = new URL(url);
    const base = new URL(baseUrl);
    return target.origin === base.origin && target.pathname.startsWith('/ui/');
  } catch {
    return false;
  }
}

/**
 * The one permission granted: writing to the clipboard, for our own UI's Copy buttons (the
 * first-run login, tokens). Electron routes `navigator.clipboard.writeText` through this
 * handler as `clipboard-sanitized-write` (docs/api/session.md, setPermissionRequestHandler).
 */
export function isPermissionAllowed(permission: string, requestingUrl: string, baseUrl: string | undefined) {
  return (
    permission === 'clipboard-sanitized-write' && baseUrl !== undefined && isOwnUiUrl(requestingUrl, baseUrl)
  );
}

export function lockDownSession(session: Session, baseUrl: () => string | undefined): void {
  session.setPermissionRequestHandler((_webContents, permission, callback, details) =>
    callback(isPermissionAllowed(permission, details.requestingUrl, baseUrl())),
  );
  session.setPermissionCheckHandler((_webContents, permission, _origin, details) =>
    isPermissionAllowed(permission, details.requestingUrl ?? '', baseUrl()),
  );
}

export function lockDownWindow(window: BrowserWindow, baseUrl: () => string | undefined): void {
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event, url) => {
    const base = baseUrl();
    if (!base || !isOwnUiUrl(url, base)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
}
